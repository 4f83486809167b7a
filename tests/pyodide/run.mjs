// Runs tests/lite_driver.py inside Pyodide under Node, with no network (micropip installs from local files):
//   node run.mjs JOB.json OUT.json
// JOB: {"files": {"<path in Pyodide>": "<path on disk>"}, "job": {...}, "allow": [origins]} -- the files (wheels, the
// driver) are copied into Pyodide's file system, then lite_driver.main(job) runs and its JSON answer
// is written to OUT.json; the job tells it how long loadPyodide took and Pyodide's version.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { loadPyodide } from "pyodide";

const [jobPath, outPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(jobPath, "utf8"));

// Nothing may come from the network: Pyodide reads its runtime from node_modules, and any
// attempt to fetch a package fails loudly instead of downloading it. The one exception is a
// package index the test itself runs on loopback (JOB's "allow": its origins, http://127.0.0.1:PORT).
const realFetch = globalThis.fetch;
const allowed = spec.allow ?? [];
globalThis.fetch = async (url, options) => {
  const href = String(url?.url ?? url);
  if (allowed.some((origin) => href.startsWith(`${origin}/`))) {
    return realFetch(url, options);
  }
  throw new Error(`network access refused in the Pyodide test: ${href}`);
};

const t0 = performance.now();
const pyodide = await loadPyodide({
  stdout: (line) => process.stderr.write(`[pyodide] ${line}\n`),
  stderr: (line) => process.stderr.write(`[pyodide] ${line}\n`),
});
const loadMs = performance.now() - t0;

for (const [dest, src] of Object.entries(spec.files)) {
  pyodide.FS.mkdirTree(dirname(dest));
  pyodide.FS.writeFile(dest, readFileSync(src));
}
pyodide.globals.set("JOB", JSON.stringify({ ...spec.job, pyodide_start_ms: loadMs, pyodide_version: pyodide.version }));
let answer;
try {
  answer = await pyodide.runPythonAsync(`
import sys
sys.path.insert(0, "/harness")
from tests import lite_driver
await lite_driver.main(JOB)
`);
} catch (err) {
  process.stderr.write(`${err.message}\n`); // the Python traceback, without Pyodide's own source
  process.exit(1);
}
writeFileSync(outPath, answer); // as Python wrote it: a round trip through JS would turn 1.0 into 1
