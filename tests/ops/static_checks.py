#!/usr/bin/env python3
"""File checks of the operations setup, one per subcommand (tests/ops/check.sh runs each):

    static_checks.py compose-services     services, replicas, health checks, dependencies
    static_checks.py compose-commands     every hibiki service runs a real `hibiki` subcommand
                                          (from `$HIBIKI_BIN --help` when HIBIKI_BIN is set)
    static_checks.py compose-env          every variable docker-compose.yml uses is documented
                                          in .env.example, and .env.example names nothing unknown
    static_checks.py compose-secrets      no literal secret in docker-compose.yml, placeholders
                                          only in .env.example
    static_checks.py compose-mounts       every bind-mounted path exists
    static_checks.py alert-annotations    summary, description and README runbook anchor
    static_checks.py alert-tests          each alert is tested firing and not firing
    static_checks.py dashboards           JSON, uid, title, datasource uid of every panel
    static_checks.py dockerfile           stages, non-root runtime, web dir, entrypoint
    static_checks.py dockerignore         build output, dependencies, data and secrets excluded

Needs PyYAML. Prints what is wrong and exits 1, or exits 0.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"
ALERTS = ROOT / "prometheus" / "alerts.yml"
ALERT_TESTS = ROOT / "prometheus" / "alerts_test.yml"
DASHBOARDS = ROOT / "grafana" / "dashboards"
DATASOURCE = ROOT / "grafana" / "provisioning" / "datasources" / "prometheus.yml"
DASHBOARD_PROVIDER = ROOT / "grafana" / "provisioning" / "dashboards" / "dashboards.yml"
DATASOURCE_UID = "hibiki-prometheus"

# decisions.md and README.md; `$HIBIKI_BIN --help` is preferred when available.
SUBCOMMANDS = {"all", "api", "scheduler", "worker", "migrate", "vapid-keys"}
SETTINGS = {
    "HIBIKI_LISTEN", "HIBIKI_PUBLIC_URL", "HIBIKI_DATA_DIR", "HIBIKI_DATABASE_URL", "HIBIKI_REDIS_URL",
    "HIBIKI_SMTP_URL", "HIBIKI_MAIL_FROM", "HIBIKI_VAPID_PRIVATE_KEY", "HIBIKI_VAPID_SUBJECT",
    "HIBIKI_DATA_KEY", "HIBIKI_ADMIN_EMAILS", "HIBIKI_DEV_LOGIN", "HIBIKI_ALLOW_PRIVATE_PUSH",
    "HIBIKI_METRICS_LISTEN", "HIBIKI_WEB_DIR", "HIBIKI_AUTH_RATE_PER_MINUTE",
    "HIBIKI_API_RATE_PER_MINUTE", "HIBIKI_QUEUE_NAMESPACE", "HIBIKI_LOG", "HIBIKI_LOG_FORMAT",
}
# Read by compose itself, not by docker-compose.yml's ${…}.
COMPOSE_VARIABLES = {"COMPOSE_PROJECT_NAME", "COMPOSE_FILE", "COMPOSE_PROFILES"}
SECRETS = {"POSTGRES_PASSWORD", "HIBIKI_DATA_KEY", "HIBIKI_VAPID_PRIVATE_KEY", "GRAFANA_ADMIN_PASSWORD"}
HIBIKI_SERVICES = {"migrate", "api", "scheduler", "worker"}
LONG_RUNNING = {"postgres", "redis", "api", "scheduler", "worker", "prometheus", "grafana", "mailpit"}

problems: list[str] = []


def problem(message: str) -> None:
    problems.append(message)


def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def hibiki_services(doc: dict) -> dict:
    """Services running the hibiki image: built from ./Dockerfile."""
    return {name: s for name, s in doc["services"].items() if "build" in s}


def binary_help() -> str | None:
    binary = os.environ.get("HIBIKI_BIN")
    if not binary:
        return None
    result = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30,
                            env={"PATH": os.environ.get("PATH", "")})
    if result.returncode != 0:
        problem(f"`{binary} --help` failed: {result.stderr.strip()}")
        return None
    return result.stdout


def subcommands() -> tuple[set[str], str]:
    text = binary_help()
    if text is None:
        return SUBCOMMANDS, "the list of decisions.md"
    found, inside = set(), False
    for line in text.splitlines():
        if line.strip() == "Commands:":
            inside = True
            continue
        if inside:
            if not line.startswith("  "):
                break
            word = line.split()[0]
            if word != "help":
                found.add(word)
    if not found:
        problem("no `Commands:` section in the binary's --help")
    return found, f"`{os.environ['HIBIKI_BIN']} --help`"


def settings() -> set[str]:
    text = binary_help()
    if text is None:
        return SETTINGS
    # The log settings are read before the flags are parsed, so --help does not list them.
    return set(re.findall(r"\[env: (HIBIKI_[A-Z0-9_]+)", text)) | {"HIBIKI_LOG", "HIBIKI_LOG_FORMAT"}


def env_example() -> tuple[dict[str, str], dict[str, str]]:
    """(active NAME -> value, commented-out NAME -> value) of .env.example."""
    active, commented = {}, {}
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if m:
            active[m.group(1)] = m.group(2)
            continue
        m = re.match(r"\s*#\s*([A-Z][A-Z0-9_]*)=(\S*)", line)
        if m:
            commented[m.group(1)] = m.group(2)
    return active, commented


# ---------------------------------------------------------------------------------- checks

def check_compose_services() -> None:
    doc = compose()
    services = doc.get("services", {})
    for name in sorted(LONG_RUNNING | {"migrate"}):
        if name not in services:
            problem(f"service {name} is missing")
    for name in sorted(LONG_RUNNING & services.keys()):
        if "healthcheck" not in services[name]:
            problem(f"service {name} has no healthcheck")
    for name in ("api", "scheduler", "worker"):
        s = services.get(name, {})
        replicas = s.get("deploy", {}).get("replicas")
        if replicas != 2:
            problem(f"service {name}: deploy.replicas is {replicas}, expected 2")
        deps = s.get("depends_on", {})
        if not isinstance(deps, dict) or deps.get("migrate", {}).get("condition") != "service_completed_successfully":
            problem(f"service {name} does not wait for migrate (service_completed_successfully)")
        for infra in ("postgres", "redis"):
            if not isinstance(deps, dict) or deps.get(infra, {}).get("condition") != "service_healthy":
                problem(f"service {name} does not wait for a healthy {infra}")
    migrate = services.get("migrate", {})
    if migrate.get("restart") not in ("no", None):
        problem("migrate must not restart (it is one-shot)")
    if migrate.get("depends_on", {}).get("postgres", {}).get("condition") != "service_healthy":
        problem("migrate does not wait for a healthy postgres")
    for name, s in hibiki_services(doc).items():
        env = s.get("env_file")
        files = [env] if isinstance(env, str) else [e if isinstance(e, str) else e.get("path") for e in env or []]
        if ".env" not in files:
            problem(f"service {name} does not read .env (env_file)")
        environment = s.get("environment", {})
        if environment.get("HIBIKI_LISTEN") != "0.0.0.0:8080" or environment.get("HIBIKI_METRICS_LISTEN") != "0.0.0.0:9464":
            problem(f"service {name} must listen on 0.0.0.0:8080 and 0.0.0.0:9464")
        if "HIBIKI_DEV_LOGIN" in environment:
            problem(f"service {name} sets HIBIKI_DEV_LOGIN")
    image = services.get("postgres", {}).get("image", "")
    if not re.match(r"postgres:16\b", image):
        problem(f"postgres image is {image!r}, expected postgres:16")
    if "pg_isready" not in json.dumps(services.get("postgres", {}).get("healthcheck", {})):
        problem("postgres healthcheck does not use pg_isready")
    redis = services.get("redis", {})
    if not re.match(r"redis:7\b", redis.get("image", "")):
        problem("redis image is not redis:7")
    command = redis.get("command", [])
    command = command if isinstance(command, list) else command.split()
    if "--appendonly" not in command or command[command.index("--appendonly") + 1] != "yes":
        problem("redis does not run with --appendonly yes")
    for name, path in (("postgres", "/var/lib/postgresql/data"), ("redis", "/data"), ("grafana", "/var/lib/grafana"), ("prometheus", "/prometheus")):
        volumes = [v for v in services.get(name, {}).get("volumes", []) if isinstance(v, str)]
        named = [v for v in volumes if v.split(":")[1:2] == [path] and not v.startswith((".", "/"))]
        if not named:
            problem(f"{name} keeps {path} in no named volume")
        for v in named:
            if v.split(":")[0] not in (doc.get("volumes") or {}):
                problem(f"volume {v.split(':')[0]} is not declared")
    prom = json.dumps(services.get("prometheus", {}))
    if "alerts.yml" not in prom or "prometheus.yml" not in prom:
        problem("prometheus does not mount prometheus.yml and alerts.yml")
    # Prometheus' scrape targets are the compose service names.
    prometheus_yml = yaml.safe_load((ROOT / "prometheus" / "prometheus.yml").read_text(encoding="utf-8"))
    targets = set()
    for job in prometheus_yml.get("scrape_configs", []):
        for sd in job.get("dns_sd_configs", []):
            targets |= {n.split(":")[0] for n in sd.get("names", [])}
            if sd.get("port") != 9464:
                problem(f"scrape job {job['job_name']} does not scrape port 9464")
        for sc in job.get("static_configs", []):
            targets |= {t.split(":")[0] for t in sc.get("targets", [])}
    for name in ("api", "scheduler", "worker"):
        if name not in targets:
            problem(f"prometheus.yml does not scrape the {name} service")
    for target in targets - set(services) - {"localhost"}:
        problem(f"prometheus.yml scrapes {target}, which is no compose service")


def check_compose_commands() -> None:
    known, source = subcommands()
    doc = compose()
    services = hibiki_services(doc)
    if set(services) != HIBIKI_SERVICES:
        problem(f"hibiki services are {sorted(services)}, expected {sorted(HIBIKI_SERVICES)}")
    for name, s in sorted(services.items()):
        command = s.get("command")
        if command is None:
            problem(f"service {name} has no command (the image's default `all` runs everything)")
            continue
        words = command if isinstance(command, list) else command.split()
        if not words or words[0] not in known:
            problem(f"service {name}: {words[:1]} is not a hibiki subcommand of {source}: {sorted(known)}")
    expected = {"migrate": "migrate", "api": "api", "scheduler": "scheduler", "worker": "worker"}
    for name, sub in expected.items():
        words = services.get(name, {}).get("command") or []
        words = words if isinstance(words, list) else words.split()
        if words[:1] != [sub]:
            problem(f"service {name} should run `hibiki {sub}`, runs {words}")
    print(f"subcommands checked against {source}")


def check_compose_env() -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    # ${VAR}, ${VAR:-x}, ${VAR:?x}, $VAR; $$ escapes a dollar for the container.
    interpolated = set(re.findall(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)", text))
    interpolated |= set(re.findall(r"(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)", text))
    doc = compose()
    environment_names = set()
    for name, s in hibiki_services(doc).items():
        environment_names |= set((s.get("environment") or {}).keys())
    active, commented = env_example()
    documented = set(active) | set(commented)
    for name in sorted(interpolated | environment_names):
        if name not in documented:
            problem(f"{name} is used in docker-compose.yml but not documented in .env.example")
    known = settings()
    for name in sorted(documented):
        if name not in interpolated and name not in known and name not in COMPOSE_VARIABLES:
            problem(f".env.example documents {name}, which neither docker-compose.yml nor hibiki reads")
    for name in sorted(environment_names - known):
        problem(f"docker-compose.yml sets {name}, which is no hibiki setting")
    for name, value in active.items():
        if value == "":
            problem(f".env.example sets {name} to an empty value (comment it out instead)")
    # Every variable has a comment: its paragraph holds a comment line, or its own line
    # carries a description after the value.
    paragraphs, current = [], []
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines() + [""]:
        if line.strip():
            current.append(line)
        elif current:
            paragraphs.append(current)
            current = []
    for para in paragraphs:
        prose = [l for l in para if l.lstrip().startswith("#") and not re.match(r"\s*#\s*[A-Z][A-Z0-9_]*=", l)]
        for line in para:
            m = re.match(r"\s*#?\s*([A-Z][A-Z0-9_]*)=\S*(\s+\S.*)?$", line)
            if m and not prose and not m.group(2):
                problem(f".env.example: {m.group(1)} has no comment")
    print(f"{len(interpolated)} interpolated, {len(environment_names)} hibiki environment names; {len(documented)} documented")


def check_compose_secrets() -> None:
    doc = compose()
    raw = COMPOSE.read_text(encoding="utf-8")
    for name, s in doc["services"].items():
        env = s.get("environment") or {}
        for key, value in (env.items() if isinstance(env, dict) else [tuple((e.split("=", 1) + [""])[:2]) for e in env]):
            if re.search(r"PASSWORD|SECRET|TOKEN|_KEY$|PRIVATE", key) and not re.fullmatch(r"\$\{[A-Z0-9_]+(:?[-?][^}]*)?\}", str(value)):
                problem(f"service {name}: {key} has a literal value; take it from .env")
        url = str(env.get("HIBIKI_DATABASE_URL", "")) if isinstance(env, dict) else ""
        if url and not re.search(r":\$\{POSTGRES_PASSWORD", url):
            problem(f"service {name}: the database password in HIBIKI_DATABASE_URL is not from .env")
    if re.search(r"(?i)(password|secret)\s*[:=]\s*['\"]?[A-Za-z0-9]{6,}['\"]?\s*$", raw, re.M):
        problem("docker-compose.yml seems to hold a literal password")
    active, _ = env_example()
    for name in sorted(SECRETS):
        if name not in active:
            problem(f".env.example does not list the secret {name}")
        elif "REPLACE-ME" not in active[name]:
            problem(f".env.example: {name} must be a REPLACE-ME placeholder, not a usable secret")
    if ".env" not in [l.strip().lstrip("/") for l in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()]:
        problem(".env is not in .gitignore")


def check_compose_mounts() -> None:
    doc = compose()
    for name, s in doc["services"].items():
        for volume in s.get("volumes", []):
            source = volume.split(":")[0] if isinstance(volume, str) else volume.get("source", "")
            if source.startswith("./"):
                if not (ROOT / source).exists():
                    problem(f"service {name} mounts {source}, which does not exist")
        build = s.get("build")
        if build:
            context = build if isinstance(build, str) else build.get("context", ".")
            dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
            if not (ROOT / context / dockerfile).exists():
                problem(f"service {name} builds {context}/{dockerfile}, which does not exist")
    home = doc["services"].get("grafana", {}).get("environment", {}).get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH")
    if home:
        if not home.startswith("/etc/grafana/dashboards/hibiki/") or not (DASHBOARDS / Path(home).name).exists():
            problem(f"Grafana's home dashboard {home} is not one of grafana/dashboards/")
    provider = yaml.safe_load(DASHBOARD_PROVIDER.read_text(encoding="utf-8"))
    paths = [p.get("options", {}).get("path") for p in provider.get("providers", [])]
    mounts = [v.split(":")[1] for v in doc["services"].get("grafana", {}).get("volumes", []) if isinstance(v, str) and v.startswith("./grafana/dashboards")]
    if not paths or any(p not in mounts for p in paths):
        problem(f"the dashboard provider reads {paths}, but grafana/dashboards is mounted at {mounts}")


def kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def alerts() -> list[dict]:
    doc = yaml.safe_load(ALERTS.read_text(encoding="utf-8"))
    return [r for g in doc["groups"] for r in g["rules"] if "alert" in r]


def check_alert_annotations() -> None:
    rules = alerts()
    names = [r["alert"] for r in rules]
    if len(names) != len(set(names)):
        problem("duplicate alert names")
    required = {
        "delivery lateness": r"hibiki_delivery_lateness_seconds_bucket",
        "push failures": r"hibiki_pushes_total",
        "queue depth": r"hibiki_queue_depth",
        "no scheduler leader": r"hibiki_scheduler_leader\)\s*<\s*1",
        "scheduler stalled": r"time\(\)\s*-\s*.*hibiki_scheduler_last_tick_timestamp_seconds",
        "mail failures": r"hibiki_mail_failed_total",
        "database down": r"hibiki_database_up\s*==\s*0",
    }
    for what, pattern in required.items():
        if not any(re.search(pattern, r["expr"]) for r in rules):
            problem(f"no alert covers {what}")
    for r in rules:
        a = r.get("annotations", {})
        for key in ("summary", "description", "runbook"):
            if not str(a.get(key, "")).strip():
                problem(f"{r['alert']} has no {key} annotation")
        expected = f"README.md#alert-{kebab(r['alert'])}"
        if a.get("runbook") != expected:
            problem(f"{r['alert']}: runbook is {a.get('runbook')!r}, expected {expected}")
        if r.get("labels", {}).get("severity") not in ("warning", "critical"):
            problem(f"{r['alert']} has no severity warning|critical")
    print(f"{len(rules)} alerts: {', '.join(names)}")


def check_alert_tests() -> None:
    doc = yaml.safe_load(ALERT_TESTS.read_text(encoding="utf-8"))
    fires, quiet = set(), set()
    for test in doc.get("tests", []):
        for case in test.get("alert_rule_test", []):
            (fires if case.get("exp_alerts") else quiet).add(case["alertname"])
    for r in alerts():
        if r["alert"] not in fires:
            problem(f"{r['alert']} is never tested firing")
        if r["alert"] not in quiet:
            problem(f"{r['alert']} is never tested not firing")


def check_dashboards() -> None:
    ds = yaml.safe_load(DATASOURCE.read_text(encoding="utf-8"))
    uids = [d.get("uid") for d in ds.get("datasources", [])]
    if DATASOURCE_UID not in uids:
        problem(f"the provisioned datasource's uid is {uids}, expected {DATASOURCE_UID}")
    files = sorted(DASHBOARDS.glob("*.json"))
    if not files:
        problem("no dashboards in grafana/dashboards/")
    seen_uids: dict[str, str] = {}
    for path in files:
        try:
            board = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            problem(f"{path.name}: invalid JSON: {e}")
            continue
        for key in ("uid", "title"):
            if not isinstance(board.get(key), str) or not board[key].strip():
                problem(f"{path.name}: no {key}")
        uid = board.get("uid", "")
        if uid in seen_uids:
            problem(f"{path.name}: uid {uid} is also {seen_uids[uid]}'s")
        seen_uids[uid] = path.name
        if len(uid) > 40:
            problem(f"{path.name}: uid longer than 40 characters")
        ids, count = set(), 0

        def panels(items):
            for p in items:
                yield p
                yield from panels(p.get("panels", []))

        for panel in panels(board.get("panels", [])):
            pid = panel.get("id")
            if pid in ids:
                problem(f"{path.name}: panel id {pid} repeats")
            ids.add(pid)
            if panel.get("type") == "row":
                continue
            count += 1
            where = f"{path.name}: panel {panel.get('title')!r}"
            if not panel.get("title"):
                problem(f"{where} has no title")
            if panel.get("datasource", {}).get("uid") != DATASOURCE_UID:
                problem(f"{where}: datasource is not {DATASOURCE_UID}")
            targets = panel.get("targets") or []
            if not targets:
                problem(f"{where} has no query")
            for t in targets:
                if t.get("datasource", {}).get("uid", DATASOURCE_UID) != DATASOURCE_UID:
                    problem(f"{where}: a query's datasource is not {DATASOURCE_UID}")
                if not str(t.get("expr", "")).strip():
                    problem(f"{where}: a query has no expr")
            gp = panel.get("gridPos", {})
            if gp.get("x", 0) + gp.get("w", 0) > 24:
                problem(f"{where} is wider than the grid")
        print(f"{path.name}: uid {uid}, {count} panels, {board.get('title')!r}")


def check_dockerfile() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", text, re.M | re.I)
    if len(stages) < 3:
        problem(f"Dockerfile has {len(stages)} stages, expected a Rust, a Node and a runtime stage")
    images = [s[0] for s in stages]
    if not any(re.fullmatch(r"rust:1\.\d+(\.\d+)?-bookworm", i) for i in images):
        problem("no rust:1.N-bookworm builder stage (a versioned toolchain)")
    for image in images:
        if ":" not in image or not re.search(r":\d", image):
            problem(f"the base image {image} names no version")
    if not any(i.startswith("node:") for i in images):
        problem("no node stage")
    if not images or not re.match(r"(debian:12(\.\d+)?-slim|gcr\.io/distroless/cc)", images[-1]):
        problem(f"the runtime stage is {images[-1:]} (expected debian:12.N-slim or distroless cc)")
    if not re.search(r"cargo build --release --locked", text):
        problem("no `cargo build --release --locked`")
    if re.search(r"\bnpm install\b", text):
        problem("the web stage runs `npm install`: use `npm ci` (exactly the lock file)")
    if not re.search(r"npm ci\b", text) or not re.search(r"npm run build", text):
        problem("the web stage does not run `npm ci` and `npm run build`")
    runtime = text[text.rfind("\nFROM "):]
    users = re.findall(r"^USER\s+(\S+)", runtime, re.M)
    if not users or users[-1].split(":")[0] in ("root", "0"):
        problem("the runtime does not run as a non-root user")
    if not re.search(r'^ENTRYPOINT\s+\["hibiki"\]', runtime, re.M):
        problem('no ENTRYPOINT ["hibiki"]')
    web_dir = re.search(r"HIBIKI_WEB_DIR=(\S+)", runtime)
    copied = re.search(r"^COPY\s+--from=\S+\s+\S*dist/?\s+(\S+)", runtime, re.M)
    if not web_dir or not copied or web_dir.group(1).rstrip("/") != copied.group(1).rstrip("/"):
        problem("web/dist is not copied to the path HIBIKI_WEB_DIR names")
    for dep in ("tzdata", "ca-certificates"):
        if dep not in runtime:
            problem(f"the runtime lacks {dep}")
    doc = compose()
    for name, s in hibiki_services(doc).items():
        wd = (s.get("environment") or {}).get("HIBIKI_WEB_DIR")
        if wd and web_dir and wd != web_dir.group(1):
            problem(f"service {name}: HIBIKI_WEB_DIR {wd} is not the image's {web_dir.group(1)}")
    # The health probe the compose health checks call is in the image.
    if "hibiki-healthcheck" in COMPOSE.read_text(encoding="utf-8") and "/usr/local/bin/hibiki-healthcheck" not in runtime:
        problem("docker-compose.yml calls hibiki-healthcheck, which the image lacks")
    # Everything the build copies is in the context.
    for line in re.findall(r"^COPY\s.*$", text, re.M):
        words = [w for w in line.split()[1:] if not w.startswith("--")]
        if "--from=" in line or any(w.startswith("<<") for w in words):
            continue
        for item in words[:-1]:
            if not (ROOT / item).exists():
                problem(f"Dockerfile copies {item}, which does not exist")


def check_dockerignore() -> None:
    lines = [l.strip().rstrip("/") for l in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
             if l.strip() and not l.startswith("#")]
    for needed in ("target", "node_modules", "data", ".venv-test", ".env"):
        if not any(l in (needed, f"**/{needed}", f"/{needed}") for l in lines):
            problem(f".dockerignore does not exclude {needed}")
    for kept in ("src", "common", "api", "scheduler", "worker", "web", "Cargo.toml", "Cargo.lock"):
        if kept in lines:
            problem(f".dockerignore excludes {kept}, which the build needs")


CHECKS = {
    "compose-services": check_compose_services,
    "compose-commands": check_compose_commands,
    "compose-env": check_compose_env,
    "compose-secrets": check_compose_secrets,
    "compose-mounts": check_compose_mounts,
    "alert-annotations": check_alert_annotations,
    "alert-tests": check_alert_tests,
    "dashboards": check_dashboards,
    "dockerfile": check_dockerfile,
    "dockerignore": check_dockerignore,
}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in CHECKS:
        print(f"usage: static_checks.py {{{'|'.join(CHECKS)}}}", file=sys.stderr)
        return 2
    try:
        CHECKS[argv[0]]()
    except (OSError, KeyError, TypeError, AttributeError, ValueError, yaml.YAMLError) as e:
        problem(f"cannot check: {type(e).__name__}: {e}")
    for p in problems:
        print(f"  - {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
