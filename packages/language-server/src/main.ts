// Entry point of the bundled server (`node dist/server.mjs --stdio`).
import { startServer } from "./server/server.js";

startServer();
