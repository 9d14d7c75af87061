import { splitQuotedLabel } from './keyLabel';

/**
 * Who asked for a request (intentSourceText), with the API key's label shown as a marked token of its own: in a
 * monospaced chip, escaped, so nothing in it can read as the app's own words.
 */
export function SourceText({ text }: { text: string }) {
  const parts = splitQuotedLabel(text);
  if (!parts) return <>{text}</>;
  return (
    <>
      {parts.before}
      <code
        className="mx-0.5 rounded border border-line bg-raised px-1 font-mono text-[0.92em] tracking-normal text-fg normal-case"
        title={`A name chosen by whoever made the key: ${parts.label}`}
        data-testid="source-key-label"
      >
        {parts.label}
      </code>
      {parts.after}
    </>
  );
}
