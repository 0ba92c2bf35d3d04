/**
 * The one way the portal writes CSV: csv-stringify with formula escaping on,
 * so a cell a tourist wrote (a note) or an operator wrote (a name) that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP's CSV injection
 * list, and their full-width forms) is prefixed with `'` and opens in a
 * spreadsheet as text, never as a formula. Numbers keep their sign.
 */
import { type Input, type Options, stringify } from "csv-stringify/sync";

/** Rows as CSV text, every cell safe to open in a spreadsheet. */
export function toCsv(rows: Input, options: Options = {}): string {
  return stringify(rows, { ...options, escape_formulas: true });
}
