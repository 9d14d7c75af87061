export function InspectPage() {
  return <p className="muted">This page is being built.</p>;
}
