"""Checks docs/openapi.yaml against a running Glossa.

* The document is a valid OpenAPI 3.0 description.
* Every route of spin.toml is described.
* Every operation it describes is called below, and every answer (success and error alike)
  matches a documented status, its headers and its schema.

Usage: openapi_check.py BASE_URL ADMIN_KEY DEVELOPER_KEY
Prints "openapi: N answers checked, M operations covered" and exits 0, or explains and exits 1.
"""

import sys
from datetime import date
import tomllib
from pathlib import Path

import requests
import yaml
from openapi_core import OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

ROOT = Path(__file__).resolve().parents[2]


def main():
    base, admin_key, developer_key = sys.argv[1:4]
    description = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text())
    # The application under test listens on its own port.
    description["servers"] = [{"url": base}]
    openapi = OpenAPI.from_dict(description)
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
        if isinstance(route, dict):
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
        ("GET", "/v3/languages", developer, {"params": {"resource": "translate_text", "include": "beta"}}, 200),
        ("GET", "/v3/languages", developer, {"params": {"resource": "nope"}}, 400),
        ("GET", "/v3/languages/resources", developer, {}, 200),
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

    covered = set()
    for method, path, headers, options, expected in calls:
        options = dict(options)
        extra = options.pop("headers", {})
        response = requests.request(method, base + path, headers={**headers, **extra}, timeout=60, **options)
        where = f"{method} {path} -> {response.status_code}"
        if response.status_code != expected:
            problems.append(f"{where}: expected {expected}: {response.text[:300]}")
            continue
        try:
            openapi.validate_response(RequestsOpenAPIRequest(response.request), RequestsOpenAPIResponse(response))
        except Exception as error:  # the validator raises one of several error types
            details = getattr(error, "schema_errors", None) or getattr(error, "__cause__", None) or ""
            problems.append(f"{where}: the answer does not match the description: {error} {details}")
        covered.add((method, path))

    missing = sorted(f"{method} {path}" for method, path in operations - covered)
    if missing:
        problems.append("operations described but never called: " + ", ".join(missing))
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"openapi: {len(calls)} answers checked, {len(operations)} operations covered")


if __name__ == "__main__":
    main()
