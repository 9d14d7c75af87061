export function KeysPage() {
  return <p className="muted">This page is being built.</p>;
}
