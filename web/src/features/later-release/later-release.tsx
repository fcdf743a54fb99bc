import { useRouteHandle } from "../../lib/route-handle";

/** An area of the menu that a later release builds; the shell already shows its title. */
export function LaterRelease() {
  const handle = useRouteHandle();
  return (
    <section className="panel later-release">
      <h2>{handle?.subtitle ?? handle?.title ?? "Coming soon"}</h2>
      <p>This area arrives in a later release of the portal. Its place in the menu is already here.</p>
    </section>
  );
}
