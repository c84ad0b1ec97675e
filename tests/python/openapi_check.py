"""Checks docs/openapi.yaml against a running Glossa.

* The document is a valid OpenAPI 3.0 description.
* Every route of spin.toml is described (but the dashboard's, a web app, not the API).
* Every operation it describes is called below, and every answer (success and error alike)
  matches a documented status, its headers and its schema.

Usage: openapi_check.py BASE_URL ADMIN_KEY DEVELOPER_KEY VOICE_GATEWAY_SECRET
Prints "openapi: N answers checked, M operations covered" and exits 0, or explains and exits 1.
"""

import re
import sys
import time
from datetime import date
import tomllib
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import requests
import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.deserializing.media_types.util import plain_loads

ROOT = Path(__file__).resolve().parents[2]


def main():
    base, admin_key, developer_key, gateway_secret = sys.argv[1:5]
    description = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text())
    # The application under test listens on its own port.
    description["servers"] = [{"url": base}]
    # v2 glossary entries come as tab-separated values: read them as text, as text/plain is read.
    config = Config(
        extra_media_type_deserializers={
            "text/tab-separated-values": plain_loads,
            # Translation memories are exported as TMX files: read them as text too.
            "application/x-tmx+xml": plain_loads,
        }
    )
    openapi = OpenAPI.from_dict(description, config=config)
    paths = openapi.spec / "paths"
    operations = set()
    for path_name, path in paths.items():
        for method in ("get", "post", "put", "patch", "delete", "head"):
            if method in path:
                operations.add((method.upper(), path_name))

    problems = []
    spin = tomllib.loads((ROOT / "spin.toml").read_text())
    described = {path_name for path_name, _ in paths.items()}
    for trigger in spin["trigger"]["http"]:
        route = trigger["route"]
        # The dashboard serves the admin web app's files, not the API: the API it calls is described.
        if isinstance(route, dict) or trigger["component"] == "dashboard":
            continue
        if route.endswith("/..."):
            prefix = route[: -len("...")]
            if not any(path.startswith(prefix) for path in described):
                problems.append(f"route {route} of spin.toml: no path under it is described")
        elif route not in described:
            problems.append(f"route {route} of spin.toml is not described")

    developer = {"Authorization": f"Service-Auth-Key {developer_key}"}
    admin = {"Authorization": f"Service-Auth-Key {admin_key}"}
    translate = {"text": ["Hello, world!"], "source_lang": "EN", "target_lang": "DE"}
    uuid = "def3a26b-3e84-45b3-84ae-0c0aaf3525f7"
    created = requests.post(f"{base}/v2/admin/developer-keys", headers=admin, json={"label": "openapi"}, timeout=60)
    key_id = created.json().get("key_id", "missing")
    created = requests.post(f"{base}/v2/admin/admin-keys", headers=admin, json={"label": "openapi"}, timeout=60)
    admin_key_id = created.json().get("key_id", "missing")
    this_year = {"start_date": f"{date.today().year}-01-01", "end_date": f"{date.today().year}-12-31"}

    calls = [
        ("POST", "/v2/translate", developer, {"json": {**translate, "show_billed_characters": True, "model_type": "quality_optimized", "tag_handling": "xml"}}, 200),
        ("POST", "/v2/translate", developer, {"data": {"text": ["a", "b"], "target_lang": "FR"}}, 200),
        ("POST", "/v2/translate", developer, {"json": {"text": ["x"]}}, 400),
        ("POST", "/v2/translate", developer, {"json": {**translate, "glossary_id": uuid}}, 404),
        ("POST", "/v2/translate", developer, {"data": "x" * (130 * 1024), "headers": {"Content-Type": "text/plain"}}, 413),
        ("POST", "/v2/translate", developer, {"data": "hi", "headers": {"Content-Type": "text/plain"}}, 415),
        ("POST", "/v2/translate", admin, {"json": translate}, 403),
        ("POST", "/v2/translate", {}, {"json": translate}, 403),
        ("GET", "/v2/translate", developer, {"params": {"text": "Hello", "target_lang": "DE"}}, 200),
        ("POST", "/v1/translate", developer, {"json": translate}, 200),
        ("POST", "/v2/write/rephrase", developer, {"json": {"text": ["Hi."], "target_lang": "es", "writing_style": "business"}}, 400),
        ("POST", "/v2/write/rephrase", developer, {"json": {"text": ["x" * 11000]}}, 413),
        ("POST", "/v2/write/rephrase", developer, {"data": "hi", "headers": {"Content-Type": "text/plain"}}, 415),
        ("POST", "/v2/write/rephrase", {}, {"json": {"text": ["Hi."]}}, 403),
        ("POST", "/v2/write/correct", developer, {"json": {"text": ["Hi."], "tone": "friendly"}}, 400),
        ("POST", "/v2/write/correct", developer, {"data": {"text": ["I has a apple."], "target_lang": "en-US"}}, 200),
        ("POST", "/v2/write/correct", developer, {"json": {"text": ["Hello."], "target_lang": "ja"}}, 400),
        ("POST", "/v2/write/rephrase", developer, {"json": {"text": ["We do not know."], "target_lang": "en-US", "writing_style": "casual"}}, 200),
        ("POST", "/v3/detect/language", developer, {"json": {"text": ["Guten Morgen, wie geht es dir?", "42"]}}, 200),
        ("POST", "/v3/detect/language", developer, {"data": {"text": ["Hello there", "Bonjour à tous"]}}, 200),
        ("POST", "/v3/detect/language", developer, {"json": {"text": ["x"] * 51}}, 400),
        ("POST", "/v3/detect/language", developer, {"data": "hi", "headers": {"Content-Type": "text/plain"}}, 415),
        ("POST", "/v3/detect/language", {}, {"json": {"text": ["x"]}}, 403),
        ("GET", "/v3/languages", developer, {"params": {"resource": "translate_text", "include": "beta"}}, 200),
        ("GET", "/v3/languages", developer, {"params": {"resource": "nope"}}, 400),
        ("GET", "/v3/languages/resources", developer, {}, 200),
        ("GET", "/v3/languages", developer, {"params": {"resource": "write"}}, 200),
        ("GET", "/v2/languages", developer, {"params": {"type": "target"}}, 200),
        ("GET", "/v2/languages", developer, {"params": {"type": "nope"}}, 400),
        ("POST", "/v2/languages", developer, {"data": {"type": "source"}}, 200),
        ("GET", "/v2/glossary-language-pairs", developer, {}, 200),
        ("GET", "/v2/usage", developer, {}, 200),
        ("POST", "/v2/usage", admin, {}, 200),
        ("GET", "/v2/usage", {"Authorization": "Bearer x"}, {}, 403),
        ("GET", "/v2/admin/developer-keys", admin, {}, 200),
        ("POST", "/v2/admin/developer-keys", admin, {"json": {"label": "x" * 300}}, 400),
        ("POST", "/v2/admin/developer-keys", admin, {"data": {"label": "form"}}, 200),
        ("GET", "/v2/admin/developer-keys", developer, {}, 403),
        ("PUT", "/v2/admin/developer-keys/label", admin, {"json": {"key_id": key_id, "label": "renamed"}}, 200),
        ("PUT", "/v2/admin/developer-keys/label", admin, {"json": {"key_id": key_id}}, 400),
        ("PUT", "/v2/admin/developer-keys/limits", admin, {"json": {"key_id": key_id, "characters": 1000, "speech_to_text_milliseconds": None}}, 200),
        ("PUT", "/v2/admin/developer-keys/limits", admin, {"json": {"key_id": "nope", "characters": 1}}, 404),
        ("PUT", "/v2/admin/developer-keys/deactivate", admin, {"json": {"key_id": key_id}}, 200),
        ("GET", "/v2/admin/admin-keys", admin, {}, 200),
        ("POST", "/v2/admin/admin-keys", admin, {"json": {"label": "second"}}, 200),
        ("POST", "/v2/admin/admin-keys", developer, {"json": {}}, 403),
        ("PUT", "/v2/admin/admin-keys/label", admin, {"json": {"key_id": admin_key_id, "label": "renamed"}}, 200),
        ("PUT", "/v2/admin/admin-keys/label", admin, {"data": {"key_id": admin_key_id}}, 400),
        ("PUT", "/v2/admin/admin-keys/deactivate", admin, {"json": {"key_id": admin_key_id}}, 200),
        ("PUT", "/v2/admin/admin-keys/deactivate", admin, {"json": {"key_id": "nope"}}, 404),
        ("GET", "/v2/admin/cost-control", admin, {}, 200),
        ("PUT", "/v2/admin/cost-control", admin, {"json": {"characters": 1000000}}, 200),
        ("PUT", "/v2/admin/cost-control", admin, {"json": {"characters": None}}, 200),
        ("PUT", "/v2/admin/cost-control", admin, {"json": {}}, 400),
        ("GET", "/v2/admin/cost-control", developer, {}, 403),
        ("GET", "/v2/admin/rate-limit", admin, {}, 200),
        ("PUT", "/v2/admin/rate-limit", admin, {"json": {"burst": 2000}}, 200),
        ("PUT", "/v2/admin/rate-limit", admin, {"json": {"requests_per_second": 0}}, 400),
        ("GET", "/v2/admin/rate-limit", developer, {}, 403),
        ("GET", "/v2/admin/audit-log", admin, {"params": this_year}, 200),
        ("GET", "/v2/admin/audit-log", admin, {"params": {"start_date": this_year["start_date"]}}, 400),
        ("GET", "/v2/admin/audit-log", developer, {"params": this_year}, 403),
        ("POST", "/v2/translate", developer, {"json": translate, "headers": {"X-Service-Reporting-Tag": "openapi"}}, 200),
        ("GET", "/v2/admin/analytics", admin, {"params": this_year}, 200),
        ("GET", "/v2/admin/analytics", admin, {"params": {**this_year, "group_by": "key"}}, 200),
        ("GET", "/v2/admin/analytics", admin, {"params": {**this_year, "group_by": "key_and_day"}}, 200),
        ("GET", "/v2/admin/analytics", admin, {"params": {**this_year, "group_by": "week"}}, 400),
        ("GET", "/v2/admin/analytics", developer, {"params": this_year}, 403),
        ("GET", "/v2/admin/analytics/custom-tags", admin, {"params": this_year}, 200),
        ("GET", "/v2/admin/analytics/custom-tags", admin, {"params": {**this_year, "aggregate_by": "day"}}, 200),
        ("GET", "/v2/admin/analytics/custom-tags", admin, {"params": {**this_year, "page": "-1"}}, 400),
        ("GET", "/v2/admin/analytics/custom-tags", developer, {"params": this_year}, 403),
        ("GET", "/health", {}, {}, 200),
        ("HEAD", "/health", {}, {}, 200),
    ]

    # A path with parameters ({glossary_id}) counts for the described path it matches.
    templates = [(template_pattern(path_name), path_name) for path_name in described if "{" in path_name]

    def described_path(path):
        if path in described:
            return path
        return next((name for pattern, name in templates if pattern.match(path)), path)

    covered = set()
    answers = 0

    def check(method, path, headers, options, expected):
        """Sends one request; checks its status and that the answer matches the description."""
        nonlocal answers
        answers += 1
        options = dict(options)
        extra = options.pop("headers", {})
        response = requests.request(method, base + path, headers={**headers, **extra}, timeout=60, **options)
        where = f"{method} {path} -> {response.status_code}"
        if response.status_code != expected:
            problems.append(f"{where}: expected {expected}: {response.text[:300]}")
            return response
        try:
            openapi.validate_response(RequestsOpenAPIRequest(response.request), RequestsOpenAPIResponse(response))
        except Exception as error:  # the validator raises one of several error types
            details = getattr(error, "schema_errors", None) or getattr(error, "__cause__", None) or ""
            problems.append(f"{where}: the answer does not match the description: {error} {details}")
        covered.add((method, described_path(path)))
        return response

    for call in calls:
        check(*call)

    check_glossaries(check, developer, admin, translate, uuid)
    check_style_rules(check, developer, admin, uuid)
    check_memories(check, developer, admin, uuid)
    check_documents(check, developer, admin, uuid)
    check_voice(check, developer, admin, uuid, {"Authorization": f"Bearer {gateway_secret}"})
    check_rate_limit(check, developer, admin)

    missing = sorted(f"{method} {path}" for method, path in operations - covered)
    if missing:
        problems.append("operations described but never called: " + ", ".join(missing))
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"openapi: {answers} answers checked, {len(operations)} operations covered")


def template_pattern(path_name):
    """A regular expression matching the paths a described path with parameters stands for."""
    parts = re.split(r"\{[^/}]+\}", path_name)
    return re.compile("^" + "[^/]+".join(map(re.escape, parts)) + "$")


def field(response, name):
    """A field of a JSON answer, or "missing" (the failed call is reported already)."""
    try:
        return response.json().get(name, "missing")
    except ValueError:
        return "missing"


def job_result(response, name):
    """A field of a job's one result, or "missing" (the failed call is reported already)."""
    try:
        return response.json()["results"][0].get(name, "missing")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "missing"


def path_and_query(url):
    """An absolute URL the application answered (a job's upload or download URL) as the path `check`
    takes and the parameters of its query string."""
    parts = urlsplit(url)
    path = parts.path if parts.path.startswith("/") else f"/{parts.path}"
    return path, dict(parse_qsl(parts.query))


def check_rate_limit(check, developer, admin):
    """A key over its request rate (one request per second, no burst): the 429 and its header.
    The requests name a time far ahead (the test clock), so the keys start afresh there."""
    at = {"headers": {"X-Service-Test-Time": "2099-01-01T00:00:00Z"}}
    check("PUT", "/v2/admin/rate-limit", admin, {"json": {"requests_per_second": 1, "burst": 1}}, 200)
    check("GET", "/v2/usage", developer, at, 200)
    check("GET", "/v2/usage", developer, at, 429)
    check("PUT", "/v2/admin/rate-limit", admin, {"json": {"requests_per_second": None, "burst": None}, **at}, 200)


def check_style_rules(check, developer, admin, unknown):
    """Every style rule operation, and a translation that applies a list."""
    body = {
        "name": "openapi style",
        "language": "de",
        "configured_rules": {"punctuation": {"apostrophe": "use_curly_apostrophes"}},
        "custom_instructions": [{"label": "Brand", "prompt": "Never translate Glossa.", "source_language": "en"}],
    }
    created = check("POST", "/v3/style_rules", developer, {"json": body}, 201)
    style_id = field(created, "style_id")
    check("POST", "/v3/style_rules", developer, {"json": {**body, "language": "nl"}}, 400)
    check("POST", "/v3/style_rules", admin, {"json": body}, 403)
    check("GET", "/v3/style_rules", developer, {"params": {"page": 0, "page_size": 5, "detailed": "true"}}, 200)
    check("GET", "/v3/style_rules", developer, {"params": {"page_size": 26}}, 400)
    check("GET", f"/v3/style_rules/{style_id}", developer, {}, 200)
    check("GET", f"/v3/style_rules/{unknown}", developer, {}, 404)
    check("GET", "/v3/style_rules/not-a-uuid", developer, {}, 400)
    check("PATCH", f"/v3/style_rules/{style_id}", developer, {"json": {"name": "openapi style renamed"}}, 200)
    check("PATCH", f"/v3/style_rules/{style_id}", developer, {"json": {}}, 400)
    check("PATCH", f"/v3/style_rules/{unknown}", developer, {"json": {"name": "x"}}, 404)
    rules = {"numbers": {"decimal_separator": "use_comma_as_decimal_separator"}}
    check("PUT", f"/v3/style_rules/{style_id}/configured_rules", developer, {"json": rules}, 200)
    check("PUT", f"/v3/style_rules/{style_id}/configured_rules", developer, {"json": {"numbers": {"x": "y"}}}, 400)
    check("PUT", f"/v3/style_rules/{unknown}/configured_rules", developer, {"json": rules}, 404)
    instructions = f"/v3/style_rules/{style_id}/custom_instructions"
    added = check("POST", instructions, developer, {"json": {"label": "Tone", "prompt": "Be brief."}}, 201)
    instruction = f"{instructions}/{field(added, 'id')}"
    check("POST", instructions, developer, {"json": {"label": "Tone"}}, 400)
    check("POST", f"/v3/style_rules/{unknown}/custom_instructions", developer, {"json": {"label": "a", "prompt": "b"}}, 404)
    check("GET", instruction, developer, {}, 200)
    check("GET", f"{instructions}/{unknown}", developer, {}, 404)
    check("GET", f"{instructions}/nope", developer, {}, 400)
    check("PUT", instruction, developer, {"json": {"label": "Tone", "prompt": "Be briefer.", "source_language": "en"}}, 200)
    check("PUT", instruction, developer, {"json": {"label": "Tone", "prompt": "x" * 301}}, 400)
    check("PUT", f"{instructions}/{unknown}", developer, {"json": {"label": "a", "prompt": "b"}}, 404)
    translate = {"text": ["It costs 3.5 euros."], "source_lang": "EN", "target_lang": "DE", "style_id": style_id}
    check("POST", "/v2/translate", developer, {"json": translate}, 200)
    check("POST", "/v2/translate", developer, {"json": {**translate, "target_lang": "FR"}}, 400)
    check("DELETE", instruction, developer, {}, 204)
    check("DELETE", instruction, developer, {}, 404)
    check("DELETE", f"/v3/style_rules/{style_id}", developer, {}, 204)
    check("DELETE", f"/v3/style_rules/{style_id}", developer, {}, 404)
    check("POST", "/v2/translate", developer, {"json": translate}, 404)


def check_voice(check, developer, admin, unknown, gateway):
    """Every voice operation, on both paths, and every internal route of the voice gateway."""
    pcm = {"source_media_content_type": "audio/pcm; encoding=s16le; rate=16000", "source_language": "en", "target_languages": ["de"]}
    for base in ("/v3/voice/realtime", "/v1/voice/realtime"):
        first = check("POST", base, developer, {"json": pcm}, 200)
        check("POST", base, developer, {"json": {}}, 400)
        check("POST", base, developer, {"json": {**pcm, "glossary_id": unknown}}, 404)
        check("POST", base, admin, {"json": pcm}, 403)
        token = field(first, "token")
        check("GET", base, developer, {"params": {"token": token}}, 200)
        check("GET", base, developer, {"params": {"token": token}}, 400)
    internal = "/internal/voice"
    token = field(check("POST", "/v3/voice/realtime", developer, {"json": pcm}, 200), "token")
    check("POST", f"{internal}/claim", gateway, {"json": {"token": token}}, 200)
    check("POST", f"{internal}/claim", gateway, {"json": {"token": token}}, 409)
    check("POST", f"{internal}/claim", gateway, {"json": {"token": "x"}}, 404)
    check("POST", f"{internal}/claim", developer, {"json": {"token": token}}, 401)
    opened = check("POST", "/v3/voice/realtime", developer, {"json": pcm}, 200)
    session = field(opened, "session_id")
    check("POST", f"{internal}/claim", gateway, {"json": {"token": field(opened, "token")}}, 200)
    report = {"session_id": session, "connection": 1, "sequence": 1, "milliseconds": 1200}
    check("POST", f"{internal}/usage", gateway, {"json": report}, 200)
    check("POST", f"{internal}/usage", gateway, {"json": {**report, "sequence": 0}}, 400)
    check("POST", f"{internal}/usage", gateway, {"json": {**report, "connection": 9}}, 404)
    check("POST", f"{internal}/usage", gateway, {"json": {**report, "session_id": unknown}}, 404)
    segments = {"session_id": session, "texts": ["Good morning."], "source_lang": "en", "target_lang": "de"}
    check("POST", f"{internal}/translate", gateway, {"json": segments}, 200)
    check("POST", f"{internal}/translate", gateway, {"json": {**segments, "target_lang": "fr"}}, 400)
    check("POST", f"{internal}/translate", gateway, {"json": {**segments, "session_id": unknown}}, 404)
    check("POST", f"{internal}/end", gateway, {"json": {"session_id": session, "connection": 1, "reason": "later"}}, 400)
    check("POST", f"{internal}/end", gateway, {"json": {"session_id": session, "connection": 1, "reason": "completed"}}, 204)
    check("POST", f"{internal}/usage", gateway, {"json": {**report, "sequence": 2}}, 409)
    check_spoken_terms(check, developer, admin, unknown, gateway, pcm)
    speech = {**pcm, "target_media_languages": ["de"]}
    check("POST", "/v3/voice/realtime", developer, {"json": speech}, 403)
    check("GET", "/v2/admin/translated-speech", admin, {}, 200)
    check("GET", "/v2/admin/translated-speech", developer, {}, 403)
    check("PUT", "/v2/admin/translated-speech", admin, {"json": {"enabled": True}}, 200)
    check("PUT", "/v2/admin/translated-speech", admin, {"json": {}}, 400)
    check("POST", "/v3/voice/realtime", developer, {"json": speech}, 200)
    check("PUT", "/v2/admin/translated-speech", admin, {"json": {"enabled": False}}, 200)


def check_spoken_terms(check, developer, admin, unknown, gateway, pcm):
    """Every spoken terms list operation (admin keys), and a session whose claim carries the terms."""
    lists = "/v2/admin/spoken-terms"
    created = check("POST", lists, admin, {"json": {"name": "openapi terms", "terms": ["Glossa", "Spin"]}}, 201)
    check("POST", lists, admin, {"data": {"name": "form terms", "terms": ["Zurich", "Lausanne"]}}, 201)
    check("POST", lists, admin, {"json": {"name": "n", "terms": ["x" * 101]}}, 400)
    check("POST", lists, developer, {"json": {"name": "n", "terms": ["a"]}}, 403)
    check("GET", lists, admin, {}, 200)
    check("GET", lists, developer, {}, 403)
    one = f"{lists}/{field(created, 'spoken_terms_id')}"
    check("GET", one, admin, {}, 200)
    check("GET", f"{lists}/{unknown}", admin, {}, 404)
    check("GET", f"{lists}/not-a-uuid", admin, {}, 400)
    check("PUT", one, admin, {"json": {"terms": ["Glossa", "WebAssembly"]}}, 200)
    check("PUT", one, admin, {"json": {}}, 400)
    check("PUT", f"{lists}/{unknown}", admin, {"json": {"name": "x"}}, 404)
    check("PUT", one, developer, {"json": {"name": "x"}}, 403)
    opened = check("POST", "/v3/voice/realtime", developer, {"json": {**pcm, "spoken_terms_id": field(created, "spoken_terms_id")}}, 200)
    check("POST", "/v3/voice/realtime", developer, {"json": {**pcm, "spoken_terms_id": unknown}}, 404)
    check("POST", "/internal/voice/claim", gateway, {"json": {"token": field(opened, "token")}}, 200)
    check("DELETE", one, developer, {}, 403)
    check("DELETE", one, admin, {}, 204)
    check("DELETE", one, admin, {}, 404)
    check("DELETE", f"{lists}/not-a-uuid", admin, {}, 400)


def check_documents(check, developer, admin, unknown):
    """Every document operation: uploads and their refusals, the status and the download, each
    with the key in a form body and in the query string."""
    base = "/v2/document"
    german = {"target_lang": "DE"}
    text = {"file": ("notes.txt", b"Hello, world.\n\nA second paragraph.\n", "text/plain")}
    html = {"file": ("page.html", b"<p>Hello, <b>world</b>.</p>", "text/html")}
    first = check("POST", base, developer, {"files": text, "data": german}, 200)
    second = check("POST", base, developer, {"files": html, "data": german}, 200)
    check("POST", base, developer, {"files": {"file": ("notes.xyz", b"x")}, "data": german}, 400)
    check("POST", base, developer, {"json": german}, 400)
    check("POST", base, developer, {"files": {"file": ("big.txt", b"x" * (1024 * 1024 + 1))}, "data": german}, 413)
    check("POST", base, developer, {"files": text, "data": {**german, "source_lang": "EN", "glossary_id": unknown}}, 404)
    check("POST", base, admin, {"files": text, "data": german}, 403)
    for handle in (first, second):
        document, key = field(handle, "document_id"), field(handle, "document_key")
        for _ in range(100):
            status = check("POST", f"{base}/{document}", developer, {"data": {"document_key": key}}, 200)
            if status.json().get("status") in ("done", "error"):
                break
            time.sleep(0.1)
    document, key = field(first, "document_id"), field(first, "document_key")
    check("GET", f"{base}/{document}", developer, {"params": {"document_key": key}}, 200)
    check("POST", f"{base}/{document}", developer, {"json": {}}, 400)
    check("POST", f"{base}/{document}", developer, {"json": {"document_key": "0" * 64}}, 404)
    check("POST", f"{base}/{document}/result", developer, {"data": {"document_key": key}}, 200)
    check("POST", f"{base}/{document}/result", developer, {"data": {"document_key": key}}, 404)
    check("GET", f"{base}/{document}", developer, {"params": {"document_key": key}}, 404)
    document, key = field(second, "document_id"), field(second, "document_key")
    check("GET", f"{base}/{document}/result", developer, {"params": {"document_key": key}}, 200)


def check_memories(check, developer, admin, unknown):
    """Every translation memory operation, in an order where each call finds what the earlier ones made."""
    base = "/v3/translation_memories"
    new = {"name": "openapi memory", "source_language": "en", "target_languages": ["de", "en-GB"]}
    created = check("POST", base, developer, {"json": new}, 201)
    memory = field(created, "translation_memory_id")
    form = {"name": "openapi form memory", "source_language": "de", "target_languages": "en,fr"}
    check("POST", base, developer, {"data": form}, 201)
    check("POST", base, developer, {"json": {**new, "source_language": "pt"}}, 400)
    check("POST", base, developer, {"data": "x", "headers": {"Content-Type": "text/plain"}}, 415)
    check("POST", base, developer, {"json": {**new, "name": "x" * (70 * 1024)}}, 413)
    check("POST", base, admin, {"json": new}, 403)
    check("GET", base, developer, {}, 200)
    check("GET", base, developer, {"params": {"page": 0, "page_size": 1}}, 200)
    check("GET", base, developer, {"params": {"page_size": 26}}, 400)
    check("GET", base, {}, {}, 403)
    check("GET", f"{base}/{memory}", developer, {}, 200)
    check("GET", f"{base}/not-a-uuid", developer, {}, 400)
    check("GET", f"{base}/{unknown}", developer, {}, 404)
    check("PATCH", f"{base}/{memory}", developer, {"json": {"name": "openapi memory renamed"}}, 200)
    check("PATCH", f"{base}/{memory}", developer, {"json": {}}, 400)
    check("PATCH", f"{base}/{unknown}", developer, {"json": {"name": "x"}}, 404)

    segments = f"{base}/{memory}/segments"
    pairs = [
        {"source": "Hello, world!", "target": "Hallo, Welt!", "target_language": "de"},
        {"source": "The color", "target": "The colour", "target_language": "en-GB"},
    ]
    check("POST", segments, developer, {"json": {"segments": pairs}}, 201)
    as_text = '[{"source": "Good morning", "target": "Guten Morgen", "target_language": "de"}]'
    check("POST", segments, developer, {"data": {"segments": as_text}}, 201)
    check("POST", segments, developer, {"json": {"segments": [{**pairs[0], "target_language": "fr"}]}}, 400)
    check("POST", f"{base}/{unknown}/segments", developer, {"json": {"segments": pairs}}, 404)
    first = check("GET", segments, developer, {"params": {"page_size": 1}}, 200)
    cursor = field(first, "next_page_cursor")
    if cursor != "missing":
        check("GET", segments, developer, {"params": {"page_size": 1, "page_cursor": cursor}}, 200)
    check("GET", segments, developer, {"params": {"filter_text": "Hello"}}, 200)
    check("GET", segments, developer, {"params": {"filter_text": "H"}}, 400)
    check("GET", segments, developer, {"params": {"page_cursor": "nope"}}, 400)
    check("GET", f"{base}/{unknown}/segments", developer, {}, 404)

    tmx = f"{base}/{memory}/tmx"
    file = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="openapi" '
        'creationtoolversion="1" datatype="plaintext" segtype="sentence" adminlang="en" srclang="en" o-tmf="none"/>'
        '<body><tu><tuv xml:lang="en-US"><seg>Save <ph x="1">&lt;br/&gt;</ph>now</seg></tuv>'
        '<tuv xml:lang="de-DE"><seg>Jetzt speichern</seg></tuv><tuv xml:lang="ja"><seg>保存</seg></tuv></tu>'
        "</body></tmx>"
    ).encode()
    as_tmx = {"Content-Type": "application/x-tmx+xml"}
    check("POST", tmx, developer, {"data": file, "headers": as_tmx}, 200)
    check("POST", tmx, developer, {"files": {"file": ("memory.tmx", file, "application/x-tmx+xml")}}, 200)
    check("POST", tmx, developer, {"data": b"<tmx>\n<body>\n<tu>", "headers": as_tmx}, 400)
    check("POST", tmx, developer, {"data": "file=x", "headers": {"Content-Type": "application/x-www-form-urlencoded"}}, 415)
    check("POST", f"{base}/{unknown}/tmx", developer, {"data": file, "headers": as_tmx}, 404)
    check("PUT", tmx, developer, {"data": file, "headers": {"Content-Type": "text/xml"}}, 200)
    check("PUT", tmx, {}, {"data": b" " * (130 * 1024), "headers": as_tmx}, 413)
    check("PUT", f"{base}/{unknown}/tmx", developer, {"data": file, "headers": as_tmx}, 404)
    check("GET", tmx, developer, {}, 200)
    check("GET", f"{base}/{unknown}/tmx", developer, {}, 404)

    # The PUT replaced the segments: delete one of those it left.
    listed = check("GET", segments, developer, {}, 200)
    try:
        segment = listed.json()["segments"][0]["targets"][0]["target_segment_id"]
    except (ValueError, KeyError, IndexError, TypeError):
        segment = "missing"
    check("DELETE", f"{segments}/{segment}", developer, {}, 204)
    check("DELETE", f"{segments}/{segment}", developer, {}, 404)
    check("DELETE", f"{segments}/not-a-uuid", developer, {}, 400)
    check("DELETE", f"{base}/{memory}", developer, {}, 204)
    check("DELETE", f"{base}/{memory}", developer, {}, 404)

    # Jobs: a TMX file imported as a new memory through its upload URL, that memory exported and
    # downloaded through its download URL. Both URLs are absolute and are called without a key.
    job_file = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="openapi" '
        'creationtoolversion="1" datatype="plaintext" segtype="sentence" adminlang="en" srclang="en-US" o-tmf="none"/>'
        '<body><tu><tuv xml:lang="en-US"><seg>Good night</seg></tuv><tuv xml:lang="de-DE"><seg>Gute Nacht</seg></tuv>'
        '<tuv xml:lang="fr"><seg>Bonne nuit</seg></tuv><tuv xml:lang="pt-BR"><seg>Boa noite</seg></tuv></tu>'
        "</body></tmx>"
    ).encode()
    declared = {"file_name": "openapi.tmx", "content_length": len(job_file), "content_type": "application/xml"}
    import_new = {"source_file": declared, "parameters": {"display_name": "openapi import"}}
    created = check("POST", f"{base}/import", developer, {"json": import_new}, 201)
    job = field(created, "job_id")
    upload, token = path_and_query(field(created, "upload_url"))
    check("POST", f"{base}/import", developer, {"json": {"source_file": {**declared, "size": 1}}}, 400)
    check("POST", f"{base}/import", admin, {"json": import_new}, 403)
    check("GET", f"{base}/jobs/{job}", developer, {}, 200)
    check("GET", f"{base}/jobs/not-a-uuid", developer, {}, 400)
    check("GET", f"{base}/jobs/{unknown}", developer, {}, 404)
    as_xml = {"Content-Type": "application/xml"}
    uploaded = check("PUT", upload, {}, {"params": token, "data": job_file, "headers": as_xml}, 200)
    check("PUT", upload, {}, {"params": token, "data": job_file, "headers": as_xml}, 409)
    again = check("POST", f"{base}/import", developer, {"json": {"source_file": declared}}, 201)
    upload, token = path_and_query(field(again, "upload_url"))
    check("PUT", upload, {}, {"params": token, "data": job_file, "headers": {"Content-Type": "text/plain"}}, 400)

    imported = job_result(uploaded, "translation_memory_id")
    exported = check("POST", f"{base}/{imported}/export", developer, {}, 202)
    check("POST", f"{base}/{imported}/export", developer, {}, 200)
    check("POST", f"{base}/{unknown}/export", developer, {}, 404)
    check("POST", f"{base}/not-a-uuid/export", developer, {}, 400)
    export_job = check("GET", f"{base}/jobs/{field(exported, 'job_id')}", developer, {}, 200)
    download, token = path_and_query(job_result(export_job, "download_url"))
    check("GET", download, {}, {"params": token}, 200)
    check("GET", download, {}, {"params": {"token": "0" * 64}}, 404)
    # The memory changes: the export's URL no longer gives it (a new export would).
    change = {"segments": [{"source": "Good morning", "target": "Guten Morgen", "target_language": "de"}]}
    check("POST", f"{base}/{imported}/segments", developer, {"json": change}, 201)
    check("GET", download, {}, {"params": token}, 410)
    check("DELETE", f"{base}/{imported}", developer, {}, 204)


def check_glossaries(check, developer, admin, translate, unknown):
    """Every glossary operation, in an order where each call finds what the earlier ones made."""
    tsv = "Hello\tHallo\nworld\tWelt"
    v2 = {"name": "openapi v2", "source_lang": "EN", "target_lang": "DE", "entries": tsv, "entries_format": "tsv"}
    created = check("POST", "/v2/glossaries", developer, {"json": v2}, 201)
    v2_id = field(created, "glossary_id")
    check("POST", "/v2/glossaries", developer, {"data": {**v2, "entries": "Hello\tHallo\nno tab here"}}, 400)
    check("POST", "/v2/glossaries", developer, {"json": {**v2, "source_lang": "xx"}}, 400)
    check("POST", "/v2/glossaries", admin, {"json": v2}, 403)
    check("GET", "/v2/glossaries", developer, {}, 200)
    check("GET", "/v2/glossaries", {}, {}, 403)
    check("GET", f"/v2/glossaries/{v2_id}", developer, {}, 200)
    check("GET", f"/v2/glossaries/{unknown}", developer, {}, 404)
    check("GET", f"/v2/glossaries/{v2_id}/entries", developer, {"headers": {"Accept": "text/tab-separated-values"}}, 200)
    check("GET", f"/v2/glossaries/{v2_id}/entries", developer, {"headers": {"Accept": "application/json"}}, 415)
    check("GET", f"/v2/glossaries/{unknown}/entries", developer, {}, 404)

    dictionaries = [
        {"source_lang": "en", "target_lang": "de", "entries": tsv, "entries_format": "tsv"},
        {"source_lang": "de", "target_lang": "en", "entries": "Hallo,Hello\nWelt,world", "entries_format": "csv"},
    ]
    created = check("POST", "/v3/glossaries", developer, {"json": {"name": "openapi v3", "dictionaries": dictionaries}}, 201)
    v3_id = field(created, "glossary_id")
    check("POST", "/v3/glossaries", developer, {"json": {"name": "twice", "dictionaries": [dictionaries[0]] * 2}}, 400)
    check("POST", "/v3/glossaries", admin, {"json": {"name": "x", "dictionaries": dictionaries}}, 403)
    check("GET", "/v3/glossaries", developer, {}, 200)
    check("GET", f"/v3/glossaries/{v3_id}", developer, {}, 200)
    check("GET", f"/v3/glossaries/{unknown}", developer, {}, 404)
    check("GET", f"/v2/glossaries/{v3_id}", developer, {}, 400)  # two dictionaries: a v3 glossary
    merge = {"source_lang": "en", "target_lang": "de", "entries": "Hello\tServus\ncat\tKatze"}
    check("PATCH", f"/v3/glossaries/{v3_id}", developer, {"json": {"name": "openapi v3 renamed", "dictionaries": [merge]}}, 200)
    check("PATCH", f"/v3/glossaries/{v3_id}", developer, {"json": {}}, 400)
    check("PATCH", f"/v3/glossaries/{unknown}", developer, {"json": {"name": "x"}}, 404)
    french = {"source_lang": "en", "target_lang": "fr", "entries": "Hello\tBonjour", "entries_format": "tsv"}
    check("PUT", f"/v3/glossaries/{v3_id}/dictionaries", developer, {"data": french}, 200)
    check("PUT", f"/v3/glossaries/{v3_id}/dictionaries", developer, {"json": {**french, "entries": " Hello\tBonjour"}}, 400)
    check("PUT", f"/v3/glossaries/{unknown}/dictionaries", developer, {"json": french}, 404)
    pair = {"source_lang": "en", "target_lang": "de"}
    check("GET", f"/v3/glossaries/{v3_id}/entries", developer, {"params": pair}, 200)
    check("GET", f"/v3/glossaries/{v3_id}/entries", developer, {"params": {"target_lang": "de"}}, 400)
    check("GET", f"/v3/glossaries/{v3_id}/entries", developer, {"params": {"source_lang": "en", "target_lang": "it"}}, 404)

    check("POST", "/v2/translate", developer, {"json": {**translate, "glossary_id": v2_id}}, 200)
    check("POST", "/v2/translate", developer, {"data": {**translate, "glossary_ids": v3_id}}, 200)
    check("POST", "/v2/translate", developer, {"json": {**translate, "target_lang": "IT", "glossary_ids": [v3_id]}}, 400)
    check("POST", "/v1/translate", developer, {"json": {**translate, "glossary_ids": [v2_id, v3_id]}}, 200)

    back = {"source_lang": "de", "target_lang": "en"}
    check("DELETE", f"/v3/glossaries/{v3_id}/dictionaries", developer, {"params": back}, 204)
    check("DELETE", f"/v3/glossaries/{v3_id}/dictionaries", developer, {"params": back}, 404)
    check("DELETE", f"/v3/glossaries/{v3_id}/dictionaries", developer, {"params": {"source_lang": "de"}}, 400)
    check("DELETE", f"/v2/glossaries/{v2_id}", developer, {}, 204)
    check("DELETE", f"/v2/glossaries/{v2_id}", developer, {}, 404)
    check("DELETE", f"/v3/glossaries/{v3_id}", developer, {}, 204)
    check("DELETE", f"/v3/glossaries/{v3_id}", developer, {}, 404)


if __name__ == "__main__":
    main()
