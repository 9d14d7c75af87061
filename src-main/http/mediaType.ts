/**
 * The media type of a Content-Type header, lower-cased and without its parameters ("Application/JSON; charset=utf-8"
 * -> "application/json"); '' when the header is missing or blank.
 */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** How a refusal names what was sent: the media type, or that there was none. */
export function describeContentType(contentType: string | undefined): string {
  const type = mediaType(contentType);
  return type === '' ? 'no Content-Type' : `Content-Type ${type.slice(0, 100)}`;
}
