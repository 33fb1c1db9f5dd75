/**
 * Checks the alert and the view bodies share (required fields, JSON types, unknown fields,
 * geography); each rule file gives them its own code and words.
 */
import { describeValueType } from "../schema-errors.js";
import type { BodyContext } from "./body-rule.js";
import { field, hasJsonType, pointerTo } from "./body-rule.js";
import { EDITOR_FIELDS, GEOGRAPHIES, type JsonType } from "./model.js";

const article = (type: JsonType) => (type === "array" ? "an array" : `a ${type}`);

export function checkRequired(ctx: BodyContext, bodyName: string, required: readonly string[], fields: Readonly<Record<string, JsonType>>): void {
  for (const name of required) {
    if (Object.prototype.hasOwnProperty.call(ctx.body, name)) continue;
    ctx.report({
      pointer: "",
      message: `The ${bodyName} has no \`${name}\`, which the service requires. Add \`"${name}"\` (${article(fields[name]!)}).`,
    });
  }
}

export function checkTypes(ctx: BodyContext, bodyName: string, fields: Readonly<Record<string, JsonType>>, arrayItems: Readonly<Record<string, JsonType>> = {}): void {
  for (const [name, type] of Object.entries(fields)) {
    if (!Object.prototype.hasOwnProperty.call(ctx.body, name)) continue;
    const value = field(ctx.body, name);
    if (!hasJsonType(value, type)) {
      ctx.report({
        pointer: pointerTo(name),
        message: `\`${name}\` is ${describeValueType(value)}, but the service reads it as ${article(type)}${type === "number" ? " (a finite JSON number, not a string)" : ""}. Write ${article(type)} in the ${bodyName}.`,
      });
      continue;
    }
    const itemType = arrayItems[name];
    if (itemType && Array.isArray(value))
      value.forEach((item, index) => {
        if (!hasJsonType(item, itemType))
          ctx.report({
            pointer: `${pointerTo(name)}/${index}`,
            message: `\`${name}\` item ${index} is ${describeValueType(item)}, but every item must be ${article(itemType)}. Write it as ${article(itemType)}.`,
          });
      });
  }
}

export function checkUnknownFields(ctx: BodyContext, bodyName: string, known: readonly string[]): void {
  for (const name of Object.keys(ctx.body)) {
    if (known.includes(name) || EDITOR_FIELDS.includes(name)) continue;
    const suggestion = ctx.suggester.closest(name, known);
    ctx.report({
      pointer: pointerTo(name),
      message: `\`${name}\` is not a field of the ${bodyName} body${suggestion ? `; did you mean \`${suggestion}\`?` : "."} It is kept and sent unchanged, but the service may ignore it.`,
      suggestion,
    });
  }
}

export function checkGeography(ctx: BodyContext, bodyName: string): void {
  const value = field(ctx.body, "geography");
  if (typeof value !== "string" || (GEOGRAPHIES as readonly string[]).includes(value)) return;
  const upper = value.toUpperCase();
  const suggestion = (GEOGRAPHIES as readonly string[]).includes(upper) ? upper : upper === "GB" ? "UK" : ctx.suggester.closest(value, GEOGRAPHIES);
  ctx.report({
    pointer: pointerTo("geography"),
    message: `The ${bodyName}'s \`geography\` is "${value}", but the service covers only \`US\` and \`UK\` (upper case)${suggestion ? `; did you mean \`${suggestion}\`?` : "."} Use one of them.`,
    suggestion,
  });
}

/** The body as an object, or a fault at the root when it is not one. */
export function notAnObjectMessage(bodyName: string, value: unknown): string {
  return `The ${bodyName} body is ${describeValueType(value)}, but the service takes a JSON object. Write the body as \`{ ... }\` with its fields.`;
}
