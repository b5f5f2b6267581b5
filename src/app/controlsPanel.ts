/**
 * The Controls panel wired to the app (ui/ControlsGui.ts is the panel itself): what each control
 * does here — seed and quality through the mode controller, the camera mode, the sky seed, the sun
 * and chunk levels of the scene shown, screenshots, probes, the URL, help, and flights to a body
 * named in the *Go to* list.
 */
import type { App } from './App';
import { ControlsGui } from './ui/ControlsGui';

/** The panel in `ui`, its edits calling into `app` (read lazily: the panel is made before the scene). */
export function createControlsPanel(app: App, ui: HTMLElement): ControlsGui {
  return new ControlsGui(ui, {
    renderer: app.renderer,
    scene: app.scene,
    notices: app.notices,
    state: () => app.state,
    setSeed: (seed) => app.setSeed(seed),
    setCameraMode: (mode) => app.setCameraMode(mode),
    setQuality: (quality) => app.modes.setQuality(quality),
    setSkySeed: (seed) => app.sky.setSeed(seed),
    sun: () => app.bodies?.sun ?? null,
    setChunkLevels: (on) => { if (app.planet) app.planet.debugLevels = on; },
    saveScreenshot: (scale) => void app.capture.save(scale),
    throwProbe: () => void app.bodies?.throwProbe(app.camera),
    writeUrl: () => app.url.writeNow(),
    toggleHelp: () => app.keys.help.show(),
    bodyNames: () => [...(app.planet ? ['planet'] : []), ...(app.field?.spec.asteroids.map((a) => `asteroid ${a.index}`) ?? [])],
    goTo: (name) => void (name === 'planet' ? app.flight.toPlanet() : app.flight.toAsteroid(Number(name.slice('asteroid '.length)))),
  });
}
