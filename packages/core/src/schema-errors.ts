/** Turns ajv's error objects into sentences a user can act on. */
export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** How a message names each JSON Schema type. */
export const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
};

export function describeValueType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string": return "a string";
    case "number": return Number.isInteger(value) ? "a whole number" : "a number";
    case "boolean": return `\`${value}\``;
    case "object": return "an object";
    default: return typeof value;
  }
}

export function describeSchemaError(error: AjvError): string {
  const where = error.instancePath === "" ? "the document" : `\`${error.instancePath}\``;
  switch (error.keyword) {
    case "required":
      return `${where} is missing the required field \`${String(error.params.missingProperty)}\``;
    case "type":
      return `${where} must be ${TYPE_WORDS[String(error.params.type)] ?? String(error.params.type)}`;
    case "const":
      return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
    case "enum":
      return `${where} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "minimum":
      return `${where} must be at least ${String(error.params.limit)}`;
    case "minItems":
      return `${where} must list at least ${String(error.params.limit)} item(s)`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

/** The calling shape of an ajv standalone validator. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}
