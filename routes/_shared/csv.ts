/** A CSV answer with its header-row marker and a download name. */
export function csvResponse(
  body: BodyInit,
  name: string,
  headers: Record<string, string>,
): Response {
  return new Response(body, {
    headers: {
      ...headers,
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `inline; filename="${name}"`,
    },
  });
}
