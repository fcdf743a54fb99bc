import { useState } from "react";
import { Modal } from "../../components/modal/modal";
import { noticeTokenGroups } from "../../lib/wasm-settings";

/** The email token help modal (spec 03 §2): the placeholders a template may use, by group
 * (General, Patient, Study, History Portal, Email Service), from wasm-core's one token list. */
export function TokenHelpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>Tokens</button>
      {open && (
        <Modal
          title="Email Tokens"
          onClose={() => setOpen(false)}
          footer={<button type="button" className="button button-primary" onClick={() => setOpen(false)}>Close</button>}
        >
          <p className="token-help-intro">Write a token in the subject or the text with its braces; the portal replaces it with the patient's value when it sends the message.</p>
          {noticeTokenGroups().map((group) => (
            <section key={group.Name} className="token-group" aria-label={group.Name}>
              <h3>{group.Name}</h3>
              <dl>
                {group.Tokens.map((t) => (
                  <div key={t.Token} className="token-row">
                    <dt><code>{`{${t.Token}}`}</code></dt>
                    <dd>{t.Description}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </Modal>
      )}
    </>
  );
}
