import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../ui/Button';

/**
 * Asks for a confirm before a request is turned down, with a reason the bot reads in the request (its `reason`).
 * A native modal dialog: focus moves in, the page behind is inert, Esc cancels.
 */
export function RejectDialog({
  what,
  busy,
  onReject,
  onCancel,
}: {
  what: string;
  busy: boolean;
  onReject: (reason: string) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      data-testid="request-reject-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-line bg-surface p-5 text-fg shadow-xl backdrop:bg-black/40"
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          onReject(reason);
        }}
      >
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Reject this request?
        </h2>
        <p className="text-muted">{what}</p>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-reason`} className="text-[0.8125rem] font-medium">
            Reason <span className="font-normal text-muted">(the bot reads it)</span>
          </label>
          <textarea
            id={`${id}-reason`}
            rows={2}
            maxLength={200}
            value={reason}
            placeholder="e.g. too much for one trade"
            onChange={(event) => setReason(event.target.value)}
            data-testid="request-reject-reason"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onCancel} disabled={busy} testId="request-reject-cancel">
            Keep it
          </Button>
          <Button type="submit" variant="danger" disabled={busy} testId="request-reject-confirm">
            {busy ? 'Rejecting…' : 'Reject the request'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
