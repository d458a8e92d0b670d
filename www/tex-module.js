// Where the lesson editor's TeX converter (tex.js, with Temml) comes from: its own bundle,
// tex.min.js beside the editor's, loaded when the editor first opens — so that a reader of a
// lesson link, whose lesson the editor's module checks and plays, does not download it. The
// single file (scripts/single.mjs) puts a module in this one's place that holds the converter
// inside the file.

/** The TeX converter's module (tex.js's exports). */
export function texModule() {
  // A variable as the path, so that the editor's bundle leaves the import as it is.
  const path = new URL('./tex.min.js', import.meta.url).href;
  return import(path);
}
