import { ImagePlus } from 'lucide-react';
import { useId } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { FieldError } from './FieldError';
import type { LaunchProblem } from './launchBody';
import { useLaunchForm } from './launchForm';
import { IMAGE_MIME_TYPES, imageFileProblem, readDataUrl, uploadImage } from './uploadImage';

/** Each pick gets a number; only the latest pick's upload may land in the form. */
let latestPick = 0;

/** Stores a picked file on the service and keeps the link it answers, with a data: preview meanwhile. */
async function take(file: File): Promise<void> {
  const pick = ++latestPick;
  const { edit } = useLaunchForm.getState();
  const current = () => pick === latestPick;
  const problem = imageFileProblem(file);
  if (problem) {
    edit({ image: { status: 'failed', fileName: file.name, error: problem } });
    return;
  }
  edit({ image: { status: 'uploading', fileName: file.name, preview: null } });
  const preview = readDataUrl(file).then(
    (url) => url,
    () => null,
  );
  void preview.then((url) => {
    const image = useLaunchForm.getState().draft.image;
    if (current() && image.status === 'uploading') edit({ image: { ...image, preview: url } });
  });
  try {
    const stored = await uploadImage(file);
    if (!current()) return;
    edit({
      image: {
        status: 'ready',
        fileName: file.name,
        preview: await preview,
        uri: stored.uri,
        url: stored.url,
        bytes: stored.bytes,
      },
    });
  } catch (cause) {
    if (current()) edit({ image: { status: 'failed', fileName: file.name, error: failureOf(cause) } });
  }
}

/** The token's logo: a PNG, JPG, GIF or WebP up to 5 MB, uploaded as soon as it is picked and shown as it will look. */
export function ImageUpload({ problems }: { problems: Record<string, LaunchProblem> }) {
  const image = useLaunchForm((s) => s.draft.image);
  const preview = image.status === 'ready' || image.status === 'uploading' ? image.preview : null;
  const inputId = useId();
  return (
    <div className="flex flex-col gap-3" data-testid="launch-image" data-state={image.status}>
      <div className="flex items-center gap-4">
        <div className="grid size-20 shrink-0 place-items-center overflow-hidden rounded-full border border-dashed border-line-strong bg-raised">
          {preview ? (
            <img
              src={preview}
              alt="The logo as picked"
              className="size-full object-cover"
              data-testid="launch-image-preview"
            />
          ) : (
            <ImagePlus size={24} className="text-muted" aria-hidden="true" />
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <label className="text-[0.8125rem] font-medium" htmlFor={inputId}>
            Logo
          </label>
          <input
            id={inputId}
            type="file"
            accept={IMAGE_MIME_TYPES.join(',')}
            className="max-w-full text-sm file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-line-strong file:bg-surface file:px-3 file:py-1.5 file:font-semibold file:text-fg hover:file:bg-raised"
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared so picking the same file again (after fixing it) still fires a change.
              event.target.value = '';
              if (file) void take(file);
            }}
            data-testid="launch-image-input"
          />
          {image.status === 'none' && <p className="text-xs text-muted">PNG, JPG, GIF or WebP, up to 5 MB.</p>}
          {image.status === 'uploading' && (
            <p className="text-xs text-muted" data-testid="launch-image-uploading">
              Uploading {image.fileName}…
            </p>
          )}
          {image.status === 'ready' && (
            <p className="truncate text-xs text-muted" data-testid="launch-image-stored" data-uri={image.uri}>
              Stored {image.fileName} ({Math.ceil(image.bytes / 1024).toLocaleString('en-US')} KB) as{' '}
              <code title={image.uri}>{image.uri.slice(0, 18)}…</code>
            </p>
          )}
        </div>
      </div>
      {image.status === 'failed' && <ErrorPanel title={`${image.fileName} cannot be the logo`} error={image.error} />}
      <FieldError fields={['image']} problems={problems} testId="launch-image-error" />
    </div>
  );
}
