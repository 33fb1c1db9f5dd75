/** The workflows under examples/, read at build time (see scripts/build-config.mjs). */
declare module "wfkit:examples" {
  export const examples: readonly { name: string; title: string; text: string }[];
}
