// Runs the Pico firmware's checks (checks.py) under MicroPython's WebAssembly port in Node.
//
//   node run.mjs MICROPYTHON_MJS FIRMWARE_DIR CHECKS_PY VECTORS_JSON
//
// MICROPYTHON_MJS: micropython.mjs of the npm package @micropython/micropython-webassembly-
// pyscript (.ci/test installs it in .ci/micropython). The firmware's .py files go to /fw in
// MicroPython's file system, the checks to /checks, the vectors to /vectors.json; whatever
// MicroPython prints comes out on stdout. Exit status 1 if MicroPython raised.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [mjs, firmware, checks, vectors] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(mjs).href);
const mp = await loadMicroPython({
  heapsize: 192 * 1024,  // a Pico's free heap; this port may grow it, the firmware must not
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/fw");
mp.FS.mkdir("/checks");
for (const name of readdirSync(firmware)) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile(join("/fw", name), readFileSync(join(firmware, name)));
  }
}
mp.FS.writeFile("/checks/checks.py", readFileSync(checks));
mp.FS.writeFile("/vectors.json", readFileSync(vectors));
try {
  mp.runPython(
    "import sys\nsys.path.insert(0, '/fw')\nsys.path.insert(0, '/checks')\n" +
    "import checks\nchecks.main('/vectors.json')\n");
} catch (error) {
  process.stderr.write(String(error) + "\n");
  process.exit(1);
}
