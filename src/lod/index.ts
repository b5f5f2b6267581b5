/**
 * Planet chunk space and LOD (issue 9): pure TypeScript, no three.js, no DOM, no WebGL.
 * See docs/lod.md.
 */
export * from './cubeSphere.ts';
export * from './chunkKey.ts';
export * from './faceFrames.ts';
export * from './culling.ts';
export * from './selection.ts';
export * from './requests.ts';
export * from './planetLodSelector.ts';
export * from './planetStreaming.ts';
export * from './planetTransactions.ts';
export * from './pieceProvider.ts';
export * from './pieceStore.ts';
export * from './jobLedger.ts';
export * from './memoryFactor.ts';
export * from './timeFactor.ts';
export * from './snapshotLod.ts';
export * from './transactionPlan.ts';
export * from './frameSlices.ts';
export * from './GeometryCache.ts';
export * from './cubeSphereGlsl.ts';
export * from './planetSeams.ts';
export * from './lodBalance.ts';
export * from './lodUpdate.ts';
export * from './planetMesh.ts';
export * from './cubeSphereChunk.ts';
export * from './lodConfigurations.ts';
export * from './retry.ts';
export * from './reselect.ts';
export * from './asteroidLevels.ts';
export * from './planetEdits.ts';
export * from './levelErrors.ts';
