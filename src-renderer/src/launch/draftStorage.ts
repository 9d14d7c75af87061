import type { LaunchDraft } from './launchForm';

const keyOf = (chainId: number) => `launch-draft:${chainId}`;

/**
 * The draft as kept: every field as typed, and the logo only once the service stored it (by its link, which serves
 * it again after a reload; the file's bytes are not kept). A logo still uploading or refused is picked again.
 */
function keptOf(draft: LaunchDraft): LaunchDraft {
  const { image } = draft;
  return { ...draft, image: image.status === 'ready' ? { ...image, preview: null } : { status: 'none' } };
}

/** Keeps the draft for `chainId`; a full or refused storage only loses the copy, never the form. */
export function storeDraft(chainId: number, draft: LaunchDraft): void {
  try {
    localStorage.setItem(keyOf(chainId), JSON.stringify(keptOf(draft)));
  } catch {
    // Storage off or full: the draft lives on in memory until the page closes.
  }
}

/** The draft kept for `chainId`, or nothing when none is kept or it cannot be read. */
export function loadStoredDraft(chainId: number): Partial<LaunchDraft> {
  try {
    const text = localStorage.getItem(keyOf(chainId));
    const kept = text ? (JSON.parse(text) as Partial<LaunchDraft>) : {};
    if (typeof kept !== 'object' || kept === null) return {};
    const image = kept.image;
    // The stored logo is shown from the service's link: the data: preview was not kept.
    if (image?.status === 'ready' && typeof image.url === 'string')
      return { ...kept, image: { ...image, preview: image.url } };
    return { ...kept, image: { status: 'none' } };
  } catch {
    return {};
  }
}

export function clearStoredDraft(chainId: number): void {
  try {
    localStorage.removeItem(keyOf(chainId));
  } catch {
    // Nothing kept to clear.
  }
}
