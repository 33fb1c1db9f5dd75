// Preloaded into the CLI (`NODE_OPTIONS=--import <this file>`) by the hostile tests: records
// the own keys of the built-in prototypes at start, and on exit writes one line to stderr
// saying whether any changed. A child process cannot be inspected from outside, so it reports.
const watched = { "Object.prototype": Object.prototype, "Array.prototype": Array.prototype, "Function.prototype": Function.prototype };
const snapshot = () => Object.entries(watched).flatMap(([name, proto]) => Reflect.ownKeys(proto).map((key) => `${name}.${String(key)}=${String(typeof Object.getOwnPropertyDescriptor(proto, key)?.value)}`)).sort();
const before = snapshot();
process.on("exit", () => {
  const after = snapshot();
  const changed = after.filter((key) => !before.includes(key)).concat(before.filter((key) => !after.includes(key)));
  process.stderr.write(changed.length ? `prototype-probe: changed ${JSON.stringify(changed)}\n` : "prototype-probe: unchanged\n");
});
