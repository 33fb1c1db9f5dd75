/**
 * @wfkit/project: what applies to a file in a project (config discovery and loading,
 * ignores, catalogue files, severity settings and inline suppressions), shared by the CLI
 * and the language server so they never disagree. Node-only; `@wfkit/project/pure` is the
 * part without I/O.
 */
export * from "./pure.js";
export { MAX_PROJECT_FILE_BYTES, readRegularFile, fsReason, type ReadResult } from "./read-file.js";
export { loadCatalogueFile, catalogueFromText, describeFileProblem, type CatalogueLoad, type FileProblem } from "./catalogue-file.js";
export { CONFIG_FILE_NAME, ProjectResolver, ProjectError, loadConfigFile, configFromText, fileProjectOf, type ProjectConfig, type ProjectOptions, type FileProject } from "./project.js";
