import { ImageOff, Images } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ApiError } from '../api/apiRequestError';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Button } from '../ui/Button';
import { useWallet } from '../wallet/walletStore';
import { chooseLogos, WHAT_A_FETCH_REVEALS } from './logosChoice';

/**
 * Asks once, on the first run, whether to show the logos of launches other people made, saying what fetching them
 * reveals. Shown while the person has not chosen (and nothing in this run's flags chose for them); until then
 * nothing is fetched. A native modal dialog: the page behind is inert, and Esc does not close it, as either answer
 * is one click away and neither is assumed.
 */
export function LogosChoiceDialog() {
  const available = useWallet((store) => store.available);
  const info = useWallet((store) => store.info);
  if (!available || !info || info.thirdPartyFetchesChosen) return null;
  return <LogosChoiceModal />;
}

function LogosChoiceModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const choose = async (on: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      await chooseLogos(on);
    } catch (cause) {
      setFailure(failureOf(cause));
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-what`}
      data-testid="logos-choice-dialog"
      onCancel={(event) => event.preventDefault()}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-line bg-surface p-6 text-fg shadow-xl backdrop:bg-black/50"
    >
      <div className="flex flex-col gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Show logos of tokens other people launched?
        </h2>
        <div id={`${id}-what`} className="flex flex-col gap-2.5">
          <p>
            A token's logo is kept on a server its launcher chose. To show it, this app has to download it from there.
          </p>
          <p className="rounded-lg border border-line bg-raised px-3 py-2.5" data-testid="logos-choice-reveals">
            {WHAT_A_FETCH_REVEALS}
          </p>
          <p className="text-muted">
            Without them, those tokens show a plain badge with their symbol. Logos of your own launches are stored on
            this computer and always show. You can change this later in Settings, under Privacy.
          </p>
        </div>
        {failure && <ErrorPanel title="Your choice was not saved" error={failure} />}
        <div className="mt-1 flex flex-wrap justify-end gap-2">
          <Button
            onClick={() => void choose(false)}
            disabled={busy}
            icon={<ImageOff size={16} aria-hidden="true" />}
            testId="logos-choice-off"
          >
            Don't download them
          </Button>
          <Button
            onClick={() => void choose(true)}
            disabled={busy}
            icon={<Images size={16} aria-hidden="true" />}
            testId="logos-choice-on"
          >
            Show their logos
          </Button>
        </div>
      </div>
    </dialog>
  );
}
