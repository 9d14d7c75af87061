export function ReferralsPage() {
  return <p className="muted">This page is being built.</p>;
}
