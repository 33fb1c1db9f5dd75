/**
 * The CLI's side of `wfkit.config.json`: @wfkit/project finds, reads and applies configs (the
 * language server uses the same code); here its problems become `CliError`s (exit 2, one
 * line naming the file as the user sees it), because checking with half a config would give
 * answers the user did not ask for. Flags win over the config (`--catalogue` over `catalogue`).
 */
import path from "node:path";
import { describeFileProblem, fileProjectOf, ProjectError, ProjectResolver, type FileProblem, type FileProject, type ProjectConfig } from "@wfkit/project";
import { CliError } from "./errors.js";
import { displayPathOf } from "./files.js";

export type Config = ProjectConfig;

/** Finds and loads configs, reading each directory and each config file at most once. */
export class ConfigResolver {
  private readonly project: ProjectResolver;

  /**
   * `explicitPath`: `--config FILE`, used for every file instead of searching.
   * `ignorePatterns`: `--ignore` globs, relative to `cwd`.
   */
  constructor(
    private readonly cwd: string,
    explicitPath?: string,
    ignorePatterns: readonly string[] = [],
  ) {
    this.project = asCliError(cwd, () => new ProjectResolver({ cwd, explicitConfig: explicitPath === undefined ? undefined : path.resolve(cwd, explicitPath), ignorePatterns }));
  }

  /** The config that applies to a file (which need not exist: stdin has a name only). */
  configFor(absoluteFilePath: string): Config | undefined {
    return asCliError(this.cwd, () => this.project.configFor(absoluteFilePath));
  }

  /** Its config, catalogue (`catalogueOverride`, the absolute `--catalogue`, wins) and policy: as the editor finds them. */
  fileProject(absoluteFilePath: string, catalogueOverride: string | undefined): FileProject {
    return asCliError(this.cwd, () => fileProjectOf(this.project, absoluteFilePath, catalogueOverride));
  }

  /** By `--ignore` or a config's `ignore`, the file or a directory above it. */
  isIgnored = (absoluteFilePath: string): boolean => asCliError(this.cwd, () => this.project.isIgnored(absoluteFilePath));

  /** A walk does not enter an ignored directory (nor read a config in it). */
  isIgnoredDirectory = (absoluteDirectory: string): boolean => asCliError(this.cwd, () => this.project.isIgnoredDirectory(absoluteDirectory));
}

/** Runs `work`, turning @wfkit/project's problems into the CLI's one-line errors. */
export function asCliError<T>(cwd: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ProjectError) {
      const failure = cliErrorOf(error.problem, cwd);
      failure.more = error.problems.slice(1).map((problem) => describeFileProblem(problem, displayPathOf(problem.path, cwd)));
      throw failure;
    }
    throw error;
  }
}

export function cliErrorOf(problem: FileProblem, cwd: string): CliError {
  return new CliError(describeFileProblem(problem, displayPathOf(problem.path, cwd)));
}
