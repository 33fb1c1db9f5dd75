// A process of bench/service-http.mjs: `service` runs @wfkit/service's server (from the dist
// directory given, so an earlier build can be measured against the current one), `floor` a bare
// node:http server that answers every request with the bytes it is given (status, content
// type, body), after reading the request's body as the service does. Either prints one JSON
// line once it listens, and stops on SIGTERM.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [mode, configFile] = process.argv.slice(2);
const config = JSON.parse(readFileSync(configFile, "utf8"));

if (mode === "floor") {
  const { status, contentType, body } = config;
  const bytes = Buffer.from(body);
  const server = createServer((request, response) => {
    request.on("data", () => {});
    request.on("end", () => {
      response.writeHead(status, { "Content-Type": contentType, "Content-Length": bytes.length });
      response.end(bytes);
    });
  });
  server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ baseUrl: `http://127.0.0.1:${server.address().port}` })));
  process.once("SIGTERM", () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
} else {
  const { startServer } = await import(pathToFileURL(path.join(config.dist, "index.js")).href);
  const server = await startServer({ port: 0, seed: config.seed, mocks: config.mocks, adminToken: config.adminToken, ...(config.db ? { db: config.db } : {}) });
  console.log(JSON.stringify({ baseUrl: server.baseUrl, keys: server.service.issuedKeys }));
  process.once("SIGTERM", () => {
    server.stop().then(() => process.exit(0));
  });
}
