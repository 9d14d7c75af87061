import type { LaunchProblem } from './launchBody';
import { useLaunchForm } from './launchForm';

/**
 * The problem with one field, shown beside it: the service's refusal when its `field` is one of `fields`, else what
 * the page found while typing. Missing values are not shown here (the button lists them) so an empty form is quiet.
 */
export function FieldError({
  fields,
  problems,
  testId,
}: {
  fields: readonly string[];
  problems: Record<string, LaunchProblem>;
  testId: string;
}) {
  const serverError = useLaunchForm((s) => s.serverError);
  if (serverError?.field && fields.includes(serverError.field)) {
    return (
      <p
        className="text-xs text-down"
        role="alert"
        data-testid={testId}
        data-code={serverError.code}
        data-source="service"
      >
        {serverError.message} {serverError.fix && <span className="text-muted">{serverError.fix}</span>}
      </p>
    );
  }
  const local = fields.map((field) => problems[field]).find((problem) => problem && !problem.missing);
  if (!local) return null;
  return (
    <p className="text-xs text-down" data-testid={testId} data-code={local.code} data-source="page">
      {local.message}
    </p>
  );
}
