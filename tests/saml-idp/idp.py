#!/usr/bin/env python3
"""A SAML 2.0 identity provider for the portal's SSO tests (issue 19), built on pysaml2 and
Debian's xmlsec1, on loopback only.

    idp.py --port P --key idp.key --cert idp.crt --sp-metadata http://127.0.0.1:Q/sso/saml/K/metadata

- GET  /metadata                the IdP's metadata (signing certificate included);
                                ?without_signing_key=1 leaves the KeyDescriptor out.
- GET  /sso/redirect            HTTP-Redirect binding: reads the SP's AuthnRequest and shows a
- GET  /service-request         sign-in form (user name = the NameID sent back).
- POST /sso/login               signs the user in: an auto-posting form with the SAMLResponse
                                to the SP's AssertionConsumerService.

POST /sso/login takes `user`, optional `attr` lines `Name=value` (attributes of the assertion)
and `mode`, which makes the answer one the SP must refuse:
good, tamper (signed, then the NameID changed), unsigned, sha1 (RSA-SHA1 / SHA-1 digests),
audience (another SP's audience), stale (issued 15 minutes ago, expired 10 minutes ago),
in_response_to (an InResponseTo the SP never issued).
Every other answer is signed RSA-SHA256 with SHA-256 digests (pysaml2's default is SHA-1).
The SP's metadata is fetched (and kept) on the first request, so the IdP can start before the
SP is configured.
"""

import argparse
import datetime
import html
import sys
import threading
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT, saml
from saml2.config import IdPConfig
from saml2.metadata import create_metadata_string
from saml2.s_utils import UnknownPrincipal
from saml2.samlp import response_from_string
from saml2.server import Server
from saml2.sigver import pre_signature_part, signed_instance_factory
from saml2.s_utils import factory
from saml2.saml import NAMEID_FORMAT_UNSPECIFIED, NAME_FORMAT_BASIC
from saml2.xmldsig import DIGEST_SHA1, DIGEST_SHA256, SIG_RSA_SHA1, SIG_RSA_SHA256
from saml2.time_util import instant

ANSWERS = ["good", "tamper", "unsigned", "sha1", "audience", "stale", "in_response_to"]
MODES = set(ANSWERS)


def config(base, key, cert, sp_metadata=None):
    conf = {
        "entityid": base + "/metadata",
        "description": "Portal test IdP",
        "service": {
            "idp": {
                "name": "Portal test IdP",
                "endpoints": {
                    # The second is the with-service-request variant's address.
                    "single_sign_on_service": [
                        (base + "/sso/redirect", BINDING_HTTP_REDIRECT),
                        (base + "/service-request", BINDING_HTTP_REDIRECT),
                    ],
                },
                "policy": {
                    "default": {
                        "lifetime": {"minutes": 5},
                        "attribute_restrictions": None,
                        "name_form": NAME_FORMAT_BASIC,
                    }
                },
                "name_id_format": [NAMEID_FORMAT_UNSPECIFIED],
                "want_authn_requests_signed": False,
            }
        },
        "key_file": key,
        "cert_file": cert,
        "xmlsec_binary": "/usr/bin/xmlsec1",
        "metadata": {"inline": [sp_metadata]} if sp_metadata else {},
        "allow_unknown_attributes": True,
    }
    c = IdPConfig()
    c.load(conf)
    return c


class Idp:
    def __init__(self, base, key, cert, sp_metadata_url):
        self.base, self.key, self.cert = base, key, cert
        self.sp_metadata_url = sp_metadata_url
        self.server = None
        self.lock = threading.Lock()

    def metadata(self, without_signing_key):
        xml = create_metadata_string(None, config(self.base, self.key, self.cert), valid=4, sign=False)
        xml = xml.decode() if isinstance(xml, bytes) else xml
        if without_signing_key:
            start = xml.find("<ns0:KeyDescriptor")
            end = xml.find("</ns0:KeyDescriptor>")
            if start < 0 or end < 0:
                raise RuntimeError("no KeyDescriptor to leave out")
            xml = xml[:start] + xml[end + len("</ns0:KeyDescriptor>"):]
        return xml

    def idp(self):
        with self.lock:
            if self.server is None:
                with urllib.request.urlopen(self.sp_metadata_url, timeout=10) as r:
                    sp_xml = r.read().decode()
                self.server = Server(config=config(self.base, self.key, self.cert, sp_xml))
            return self.server

    def login(self, saml_request, user, attrs, mode):
        idp = self.idp()
        req = idp.parse_authn_request(saml_request, BINDING_HTTP_REDIRECT).message
        sp = req.issuer.text
        acs = req.assertion_consumer_service_url
        in_response_to = "id-never-issued-by-the-portal" if mode == "in_response_to" else req.id
        if mode == "sha1":
            sign_alg, digest_alg = SIG_RSA_SHA1, DIGEST_SHA1
        else:
            sign_alg, digest_alg = SIG_RSA_SHA256, DIGEST_SHA256
        name_id = saml.NameID(format=NAMEID_FORMAT_UNSPECIFIED, text=user)
        unsigned = idp.create_authn_response(
            attrs,
            in_response_to,
            acs,
            sp,
            name_id=name_id,
            authn={"class_ref": saml.AUTHN_PASSWORD_PROTECTED, "authn_auth": self.base},
            sign_response=False,
            sign_assertion=False,
        )
        resp = response_from_string(str(unsigned))
        assertion = resp.assertion[0] if isinstance(resp.assertion, list) else resp.assertion
        if mode == "audience":
            for restriction in assertion.conditions.audience_restriction:
                for audience in restriction.audience:
                    audience.text = "https://another-sp.example.org/metadata"
        if mode == "stale":
            now = datetime.datetime.now(datetime.timezone.utc)
            fmt = "%Y-%m-%dT%H:%M:%SZ"
            issued = (now - datetime.timedelta(minutes=15)).strftime(fmt)
            ended = (now - datetime.timedelta(minutes=10)).strftime(fmt)
            resp.issue_instant = issued
            assertion.issue_instant = issued
            assertion.conditions.not_before = issued
            assertion.conditions.not_on_or_after = ended
            for sc in assertion.subject.subject_confirmation:
                sc.subject_confirmation_data.not_on_or_after = ended
            for st in assertion.authn_statement:
                st.authn_instant = issued
        if mode == "unsigned":
            return acs, resp.to_string().decode()
        assertion.signature = pre_signature_part(
            assertion.id, idp.sec.my_cert, 1, sign_alg=sign_alg, digest_alg=digest_alg
        )
        resp.signature = pre_signature_part(
            resp.id, idp.sec.my_cert, 2, sign_alg=sign_alg, digest_alg=digest_alg
        )
        signed = signed_instance_factory(
            resp,
            idp.sec,
            [(assertion.__class__.c_tag, assertion.id), (resp.__class__.c_tag, resp.id)],
        )
        signed = signed.decode() if isinstance(signed, bytes) else signed
        if mode == "tamper":
            marker = ">%s<" % html.escape(user, quote=False)
            if marker not in signed:
                raise RuntimeError("NameID not found to tamper with")
            signed = signed.replace(marker, ">%s<" % html.escape(user + "0", quote=False))
        return acs, signed


def page(title, body):
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head>'
        "<body><main>%s</main></body></html>" % (html.escape(title), body)
    ).encode()


class Handler(BaseHTTPRequestHandler):
    idp = None

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="text/html; charset=utf-8"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        q = dict(urllib.parse.parse_qsl(url.query))
        try:
            if url.path == "/metadata":
                xml = self.idp.metadata(q.get("without_signing_key") == "1")
                return self.send(200, xml.encode(), "application/samlmetadata+xml")
            if url.path in ("/sso/redirect", "/service-request"):
                # The request is read now so a bad one fails here, not after the form.
                self.idp.idp().parse_authn_request(q["SAMLRequest"], BINDING_HTTP_REDIRECT)
                form = (
                    '<h1>Test IdP sign-in</h1><form method="post" action="/sso/login">'
                    '<input type="hidden" name="SAMLRequest" value="%s">'
                    '<input type="hidden" name="RelayState" value="%s">'
                    '<input type="hidden" name="Endpoint" value="%s">'
                    '<p><label>User name <input name="user" autocomplete="off"></label></p>'
                    '<p><label>Answer <select name="mode">%s</select></label></p>'
                    '<button type="submit">Sign in</button></form>'
                    % (
                        html.escape(q["SAMLRequest"]),
                        html.escape(q.get("RelayState", "")),
                        html.escape(url.path),
                        "".join('<option>%s</option>' % m for m in ANSWERS),
                    )
                )
                return self.send(200, page("Test IdP", form))
            return self.send(404, b"not found", "text/plain")
        except Exception as e:  # the test reads the reason on stderr
            print("idp error: %r" % e, file=sys.stderr, flush=True)
            return self.send(400, ("error: %s" % e).encode(), "text/plain")

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length", "0"))
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        if url.path != "/sso/login":
            return self.send(404, b"not found", "text/plain")
        try:
            mode = form.get("mode", "good") or "good"
            if mode not in MODES:
                raise ValueError("unknown mode " + mode)
            attrs = {}
            for line in form.get("attr", "").splitlines():
                if "=" in line:
                    k, v = line.split("=", 1)
                    attrs.setdefault(k.strip(), []).append(v.strip())
            acs, xml = self.idp.login(form["SAMLRequest"], form.get("user", ""), attrs, mode)
            import base64

            encoded = base64.b64encode(xml.encode()).decode()
            body = (
                '<form method="post" action="%s" id="saml">'
                '<input type="hidden" name="SAMLResponse" value="%s">'
                '<input type="hidden" name="RelayState" value="%s">'
                '<noscript><button type="submit">Continue</button></noscript></form>'
                "<script>document.getElementById('saml').submit()</script>"
                % (html.escape(acs), encoded, html.escape(form.get("RelayState", "")))
            )
            return self.send(200, page("Signing in", body))
        except (UnknownPrincipal, Exception) as e:
            print("idp error: %r" % e, file=sys.stderr, flush=True)
            return self.send(400, ("error: %s" % e).encode(), "text/plain")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--cert", required=True)
    p.add_argument("--sp-metadata", required=True)
    a = p.parse_args()
    base = "http://127.0.0.1:%d" % a.port
    Handler.idp = Idp(base, a.key, a.cert, a.sp_metadata)
    httpd = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    print("listening on %s" % base, flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
