export function RequestsPage() {
  return <p className="muted">This page is being built.</p>;
}
