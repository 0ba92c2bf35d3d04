/** Guide codes match case-insensitively and ignoring surrounding spaces. */
export function normalizeGuideCode(code: string): string {
  return code.trim().toUpperCase();
}
