// What becomes of a Python exception's message in xlwings Lite's Office.js code, run by hand under Node:
//   git clone https://github.com/xlwings/xlwings-server && node scripts/officejs_error.cjs xlwings-server
// Runs xlwings-server's custom-functions-code.js (base -> makeWasmCall -> showError) with Office's own
// CustomFunctions.Error class, cut out of the custom-functions-runtime.js that xlwings-server vendors, and a
// wasmCustomFunctionsCall that answers as xlwings' Pyodide runtime does for an exception:
// {"error": str(exc), "details": traceback}. Office's runtime sends a thrown CustomFunctions.Error's
// `message` to Excel (_setErrorWithOutboundData). Prints that message, and what a returned "#VALUE!" gives.
// (Not part of the test suite: xlwings-server is not vendored here. Its licence is PolyForm Noncommercial.)
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const root = process.argv[2];
const code = fs.readFileSync(path.join(root, "xlwings_server/static/js/custom-functions/custom-functions-code.js"), "utf8");
const vendor = path.join(root, "xlwings_server/static/vendor/office-js");
const runtime = fs.readFileSync(path.join(vendor, fs.readdirSync(vendor)[0], "dist/custom-functions-runtime.js"), "utf8");

// The class: `var I=function(e){function t(n,r,o){var i=e.call(this,r||"")||this; ...}(Error)`, its enum O
// (CustomFunctions.ErrorCode) and the TypeScript __extends helper `o` it calls.
const enumText = runtime.match(/!function\(e\)\{(e\.invalidValue="#VALUE!".*?)\}\(O=/)[1];
const ErrorCode = {};
new Function("e", enumText)(ErrorCode);
const start = runtime.indexOf("var I=function(e){function t(n,r,o)") + "var I=".length;
let depth = 0;
let end = start;
for (let k = runtime.indexOf("{", start); k < runtime.length; k++) {
  if (runtime[k] === "{") depth++;
  if (runtime[k] === "}" && --depth === 0) { end = k + 1; break; }
}
const extend = (d, b) => { Object.setPrototypeOf(d, b); d.prototype = Object.create(b.prototype, { constructor: { value: d } }); };
const CustomFunctionError = new Function("o", "O", `return (${runtime.slice(start, end)})(Error);`)(extend, ErrorCode);

const answers = {
  RAISED: { error: "PERGPU: entry must be text, not the number 5", details: "Traceback (most recent call last): ..." },
  RETURNED: [[{ type: "Error", errorType: "Value" }]],
};
const ctx = {
  console: { log() {}, error() {} }, Promise, Set, Map, Object, Array, JSON, Error, String, setTimeout,
  Office: { onReady: (cb) => { if (cb) cb({}); return Promise.resolve(); }, context: { requirements: { isSetSupported: () => true } } },
  CustomFunctions: { Error: CustomFunctionError, ErrorCode, associate() {} },
  Excel: { RequestContext: class { constructor() { this.workbook = { load() {}, name: "Book1.xlsx" }; } async sync() {} } },
  config: { onWasm: true },
  xlwings: { getCultureInfoName: async () => "en-US", getDateFormat: async () => "M/d/yyyy" },
  crypto: require("crypto").webcrypto,
  wasmCustomFunctionsCall: async (body) => answers[body.func_name],
};
ctx.globalThis = ctx;
vm.createContext(ctx);
vm.runInContext(code, ctx);
(async () => {
  for (const name of Object.keys(answers)) {
    try {
      const value = await vm.runInContext("base", ctx)(name, false, [["x"]], { address: "Sheet1!A1" });
      console.log(`${name}: returned ${JSON.stringify(value)}`);
    } catch (err) {
      console.log(`${name}: threw CustomFunctions.Error ${err.code}, message ${JSON.stringify(err.message)}`);
    }
  }
})();
