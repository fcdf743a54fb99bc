// The OAuth 2 / OpenID Connect authorization server of the SSO tests (issue 19): npm
// oidc-provider with a small SMART on FHIR layer, on 127.0.0.1 only. It stands for Epic (EHR
// launch: `launch` and `aud`, a backend client assertion signed RS384) and Cerner (a patient
// signing in at the health record: client id and secret).
//
//   node server.mjs --port P --redirect URI[,URI] --epic-public-key PEM [--cerner-secret S]
//
// The SMART layer:
// - GET /fhir/.well-known/smart-configuration: the endpoints (issuer, authorize, token, jwks);
//   /fhir-other/... names the same server for a FHIR base whose `aud` this server refuses;
//   /fhir-misissued/... names another issuer (an id_token whose `iss` the portal must refuse).
// - /auth refuses an `aud` other than /fhir (error=invalid_request back to the client).
// - An EHR launch (`launch`) signs in the launch's patient without a form; otherwise a form asks
//   which patient signs in (the health-record sign-in).
// - The token response carries `patient` (the FHIR Patient id, the account here).
// Test controls (the tests' stand-in for the EHR): POST /test/launch?patient=ID makes a launch;
// GET /test/assertions lists the client assertions received; POST /test/replay-next-assertion
// makes the next token request carry an earlier assertion instead of its own (an attacker's
// replay of a captured assertion).

import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import querystring from 'node:querystring';
import Provider from 'oidc-provider';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const port = Number(arg('port', '0'));
const issuer = `http://127.0.0.1:${port}`;
const fhir = `${issuer}/fhir`;
const redirectUris = arg('redirect', '').split(',').filter(Boolean);
// The public half of the portal's EpicJwtPrivateKey: the client's registered key.
const epicJwk = crypto.createPublicKey(fs.readFileSync(arg('epic-public-key'))).export({ format: 'jwk' });
const epicJwks = { keys: [{ ...epicJwk, kid: 'portal-epic', use: 'sig', alg: 'RS384' }] };
const cernerSecret = arg('cerner-secret', 'cerner-test-secret');

const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-signing', use: 'sig', alg: 'RS256' };

const launches = new Map();
const assertions = [];
let replayNext = false;

const client = (id, extra) => ({
  client_id: id,
  redirect_uris: redirectUris,
  grant_types: ['authorization_code'],
  response_types: ['code'],
  ...extra,
});

const provider = new Provider(issuer, {
  clients: [
    client('portal-epic', {
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'RS384',
      jwks: epicJwks,
    }),
    client('portal-cerner', {
      client_secret: cernerSecret,
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  ],
  jwks: { keys: [signingKey] },
  scopes: ['openid', 'fhirUser', 'launch', 'launch/patient', 'patient/Patient.read'],
  claims: { openid: ['sub'], fhirUser: ['fhirUser'] },
  extraParams: ['aud', 'launch'],
  pkce: { required: () => true },
  enabledJWA: { clientAuthSigningAlgValues: ['RS256', 'RS384', 'PS384', 'ES384'] },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, fhirUser: `${fhir}/Patient/${id}` }),
  }),
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  features: { devInteractions: { enabled: false } },
  cookies: { keys: ['test-only-cookie-key'] },
  ttl: { AccessToken: 600, AuthorizationCode: 120, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  renderError: (ctx, out) => {
    ctx.type = 'text/plain';
    ctx.body = `${out.error}: ${out.error_description}`;
  },
});

function smartConfiguration(issuerName) {
  return {
    issuer: issuerName,
    jwks_uri: `${issuer}/jwks`,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'],
    token_endpoint_auth_signing_alg_values_supported: ['RS384'],
    scopes_supported: ['openid', 'fhirUser', 'launch', 'launch/patient', 'patient/Patient.read'],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    capabilities: ['launch-ehr', 'launch-standalone', 'client-confidential-asymmetric', 'client-confidential-symmetric', 'context-ehr-patient', 'context-standalone-patient', 'sso-openid-connect'],
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// The SMART layer and the test controls, ahead of oidc-provider's own routes.
provider.use(async (ctx, next) => {
  const path = ctx.path;
  const wellKnown = path.match(/^\/(fhir|fhir-other|fhir-misissued)\/\.well-known\/smart-configuration$/);
  if (wellKnown) {
    ctx.body = smartConfiguration(wellKnown[1] === 'fhir-misissued' ? `${issuer}/another-issuer` : issuer);
    return;
  }
  if (path === '/test/launch' && ctx.method === 'POST') {
    const launch = crypto.randomBytes(12).toString('hex');
    launches.set(launch, String(ctx.query.patient || ''));
    ctx.body = { launch };
    return;
  }
  if (path === '/test/assertions') {
    ctx.body = assertions;
    return;
  }
  if (path === '/test/replay-next-assertion' && ctx.method === 'POST') {
    replayNext = true;
    ctx.body = { ok: true };
    return;
  }
  if (path === '/auth' && ctx.method === 'GET' && ctx.query.aud !== fhir && ctx.query.aud !== `${issuer}/fhir-misissued`) {
    // SMART: `aud` must name this server's FHIR base.
    const to = String(ctx.query.redirect_uri || '');
    if (!redirectUris.includes(to)) {
      ctx.status = 400;
      ctx.body = 'invalid aud and unknown redirect_uri';
      return;
    }
    const q = querystring.stringify({ error: 'invalid_request', error_description: 'aud is not this FHIR server', state: ctx.query.state });
    ctx.redirect(`${to}${to.includes('?') ? '&' : '?'}${q}`);
    return;
  }
  if (path === '/token' && ctx.method === 'POST') {
    const form = querystring.parse(await readBody(ctx.req));
    if (form.client_assertion) {
      if (replayNext && assertions.length > 0) {
        replayNext = false;
        form.client_assertion = assertions[assertions.length - 1];
      } else {
        assertions.push(form.client_assertion);
      }
    }
    ctx.req.body = form;
  }
  await next();
  if (path === '/token' && ctx.status === 200 && ctx.body && ctx.body.access_token) {
    const token = await provider.AccessToken.find(ctx.body.access_token);
    if (token) ctx.body = { ...ctx.body, patient: token.accountId };
  }
});

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}

async function finish(req, res, result) {
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

// Sign-in and consent: an EHR launch names its patient; otherwise the form asks.
async function interaction(req, res) {
  const url = new URL(req.url, issuer);
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, uid } = details;
  if (prompt.name === 'login') {
    let patient;
    if (req.method === 'POST') {
      patient = String(querystring.parse(await readBody(req)).patient || '').trim();
    } else if (params.launch) {
      patient = launches.get(params.launch);
      if (!patient) {
        return finish(req, res, { error: 'access_denied', error_description: 'unknown launch' });
      }
    }
    if (!patient) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      return res.end(page('Health record sign-in', `<form method="post" action="${url.pathname}">
<label for="patient">Patient ID</label> <input id="patient" name="patient" autocomplete="off">
<button type="submit">Sign in</button></form>`));
    }
    return finish(req, res, { login: { accountId: patient } });
  }
  const grant = new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
  grant.addOIDCScope(String(params.scope || 'openid'));
  const grantId = await grant.save();
  return finish(req, res, { consent: { grantId } });
}

const callback = provider.callback();
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/interaction/')) {
    interaction(req, res).catch((e) => {
      res.statusCode = 500;
      res.end(String(e));
    });
    return;
  }
  callback(req, res);
});
server.listen(port, '127.0.0.1', () => {
  console.log(`test authorization server on ${issuer}`);
});
