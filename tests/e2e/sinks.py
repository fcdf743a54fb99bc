"""Loopback mail and SMS sinks for the browser tests (issue 3): a real SMTP server (aiosmtpd,
Maildir in MAIL_DIR/new) and a Twilio-style HTTP endpoint that stores each request body in
SMS_DIR/<n>.txt. Then points the demo portal's CoreNotifications at them (and its
PublicWebAddress at the portal) in its SQLite database. Prints nothing; stops on SIGTERM.

usage: sinks.py DEMO_DB PORTAL_URL MAIL_DIR SMS_DIR
"""
import asyncio
import json
import os
import signal
import socket
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox

db_path, portal_url, mail_dir, sms_dir = sys.argv[1:5]
os.makedirs(sms_dir, exist_ok=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


smtp_port = free_port()
smtp = Controller(Mailbox(mail_dir), hostname="127.0.0.1", port=smtp_port)
smtp.start()

counter = {"n": 0}
lock = threading.Lock()


class Sms(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        with lock:
            counter["n"] += 1
            name = os.path.join(sms_dir, f"{counter['n']:04d}.txt")
        with open(name + ".tmp", "wb") as f:
            f.write(body)
        os.rename(name + ".tmp", name)
        reply = b'{"sid":"SM1"}'
        self.send_response(201)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


sms = ThreadingHTTPServer(("127.0.0.1", 0), Sms)
threading.Thread(target=sms.serve_forever, daemon=True).start()


def patch(group, values):
    con = sqlite3.connect(db_path, timeout=30)
    row = con.execute("SELECT body FROM settings WHERE group_name = ?", (group,)).fetchone()
    doc = json.loads(row[0]) if row else {}
    doc.update(values)
    if row:
        con.execute("UPDATE settings SET body = ?, version = version + 1 WHERE group_name = ?", (json.dumps(doc), group))
    else:
        con.execute("INSERT INTO settings (group_name, version, body, updated_at) VALUES (?, 1, ?, 0)", (group, json.dumps(doc)))
    con.commit()
    con.close()


patch("CoreNotifications", {
    "EmailFrom": "portal@demo-imaging.example", "EmailFromName": "Demo Breast Imaging", "UseSMTPServer": True,
    "SMTPServer": "127.0.0.1", "Port": smtp_port, "SMTPUseSSL": False, "UserName": "", "Password": "", "Timeout": 5,
    "TwilioAccSid": "ACe2e", "TwilioAuthToken": "e2e", "TwilioFrom": "+15550001111",
    "AzureTwilioEndpoint": f"http://127.0.0.1:{sms.server_address[1]}",
})
patch("CorePortal", {"PublicWebAddress": portal_url})
# The patient reset round trip goes through phone verification (sara.lopez has a full phone).
# Registration does not (the default): the demo patients who register in the browser (Rosa Lee,
# Grace Jackson) have no full phone; the phone check before registration is covered by
# tests/api/tests/registration.rs.
patch("UserAccountUserAccountVerification", {"IsPhoneNumberVerificationRequiredForResetPassword": True})
open(os.path.join(sms_dir, "..", "sinks.ready"), "w").close()

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
stop.wait()
sms.shutdown()
smtp.stop()
