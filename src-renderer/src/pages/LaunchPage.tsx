export function LaunchPage() {
  return <p className="muted">This page is being built.</p>;
}
