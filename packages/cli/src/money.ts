/**
 * Costs are whole numbers of the usage allowance's minor units. The catalogue does not say
 * what currency (if any) they are, so wfkit shows them plainly: digits only, no grouping or
 * decimal point, the same in every locale and easy for scripts to read back.
 */
export function formatMinorUnits(value: number): string {
  return String(value);
}
