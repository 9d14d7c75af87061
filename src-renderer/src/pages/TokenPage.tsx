export function TokenPage({ address }: { address: string }) {
  return <p className="muted">The token page for {address} is being built.</p>;
}
