// Globals that test pages under test/browser/pages define for page.evaluate callbacks.
declare function srImport(path: string): Promise<any>;
