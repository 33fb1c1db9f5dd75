// Entry point of the bundled server (`node dist/server.mjs --stdio`).
// First, for its effect: the checker thread starts before the rest of the server is evaluated.
import "./server/prestart.js";
import { startServer } from "./server/server.js";

startServer();
