export function LaunchesPage() {
  return <p className="muted">This page is being built.</p>;
}
