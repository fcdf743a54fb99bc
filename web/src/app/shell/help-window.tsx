import { useQuery } from "@tanstack/react-query";
import { Modal } from "../../components/modal/modal";
import { api } from "../../lib/api-client";
import type { HelpContent } from "../../lib/wasm";
import "./help-window.css";

/** The Help window (spec 03 Other Settings: the help window body). The body is HTML the server
 * sanitised on save (ammonia, Quill's own classes only), so it is shown as HTML. */
export function HelpWindow({ onClose }: { onClose: () => void }) {
  const query = useQuery({
    queryKey: ["account", "help-content"],
    queryFn: () => api.get<HelpContent>("/api/accountApi/helpContent"),
  });
  return (
    <Modal title="Help" onClose={onClose}>
      {query.isPending ? (
        <p>Loading…</p>
      ) : query.data?.HelpModalContent ? (
        <div className="help-content" dangerouslySetInnerHTML={{ __html: query.data.HelpModalContent }} />
      ) : (
        <p>No help is available.</p>
      )}
    </Modal>
  );
}
