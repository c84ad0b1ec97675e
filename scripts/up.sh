#!/usr/bin/env bash
# Serves Glossa in the foreground: the inference service (with the zh→en model and the whisper
# speech models installed in $STATE_DIR/models) when its URL is local and the `ctranslate2`
# engine is listed or the voice gateway runs, Apertium APY (bound to 127.0.0.1) when the
# `apertium` engine is listed and its URL is local, the language-tools service when its URL is
# local, the voice gateway when the public voice URL is local, and the local runner. Ctrl-C (or
# SIGTERM) stops them all.
#   LISTEN          the runner's address (default 127.0.0.1:3000)
#   STATE_DIR       where the SQLite files live (default .spin)
#   RUNNER          the runner's binary (default ./target/dist/glossa, what `make up` builds)
#   LANGUAGE_TOOLS  the language-tools service's binary (default
#                   ./target/release/glossa-language-tools, what `make up` builds)
#   GLOSSA_MODELS_DIR  the inference service's models folder (default $STATE_DIR/models)
#   VOICE_GATEWAY   the voice gateway's binary (default ./target/release/voice-gateway, what
#                   `make up` builds); it serves SPIN_VARIABLE_VOICE_PUBLIC_URL
#                   (default ws://127.0.0.1:2742)
# SPIN_VARIABLE_* in the environment configure the application (see spin.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

LISTEN=${LISTEN:-127.0.0.1:3000}
STATE_DIR=${STATE_DIR:-.spin}
RUNNER=${RUNNER:-./target/dist/glossa}
ENGINE=${SPIN_VARIABLE_ENGINE:-ctranslate2,apertium}
ENGINE=${ENGINE// /}
APERTIUM_URL=${SPIN_VARIABLE_APERTIUM_URL:-http://127.0.0.1:2737}
INFERENCE_URL=${SPIN_VARIABLE_INFERENCE_URL:-http://127.0.0.1:2741}
export GLOSSA_MODELS_DIR=${GLOSSA_MODELS_DIR:-$STATE_DIR/models}
LANGUAGE_TOOLS=${LANGUAGE_TOOLS:-./target/release/glossa-language-tools}
LANGUAGE_TOOLS_URL=${SPIN_VARIABLE_LANGUAGE_TOOLS_URL:-http://127.0.0.1:2740}
VOICE_GATEWAY=${VOICE_GATEWAY:-./target/release/voice-gateway}
export SPIN_VARIABLE_VOICE_PUBLIC_URL=${SPIN_VARIABLE_VOICE_PUBLIC_URL:-ws://127.0.0.1:2742}
voice=
[[ $SPIN_VARIABLE_VOICE_PUBLIC_URL =~ ^ws://(127\.0\.0\.1|localhost):([0-9]+)/*$ ]] && voice=${BASH_REMATCH[2]}

mkdir -p "$STATE_DIR"
pids=()
stop() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM

# started URL LOG: waits until URL answers (at most 2 minutes); if the process started last dies
# first, shows LOG and stops.
started() {
    for _ in $(seq 1 600); do
        curl -fs "$1" >/dev/null 2>&1 && return
        kill -0 "${pids[-1]}" 2>/dev/null || { cat "$2" >&2; exit 1; }
        sleep 0.2
    done
}

# secret NAME: the variable's value, or a secret made for this run (exported for the runner).
secret() {
    local variable=SPIN_VARIABLE_$1
    if [ -z "${!variable:-}" ]; then
        export "$variable=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
    fi
}

# The inference service (the ctranslate2 engine's models, the voice gateway's speech
# recognition), on loopback with a secret made for this run unless one is given; the zh→en
# package and the whisper models setup.sh fetched are installed on first use.
if [[ ,$ENGINE, == *,ctranslate2,* || -n $voice ]] && [[ $INFERENCE_URL =~ ^http://(127\.0\.0\.1|localhost):([0-9]+)/*$ ]]; then
    port=${BASH_REMATCH[2]}
    for model in zh-en:translate-zh_en.argosmodel whisper-tiny.en:whisper-tiny.en whisper-base:whisper-base; do
        if [ ! -e "$GLOSSA_MODELS_DIR/${model%%:*}/installed.json" ] && [ -e "target/models/${model#*:}" ]; then
            "$RUNNER" models install "target/models/${model#*:}"
        fi
    done
    secret INFERENCE_SECRET
    echo "Starting the inference service on 127.0.0.1:$port (it loads its models first)"
    INFERENCE_SECRET=$SPIN_VARIABLE_INFERENCE_SECRET PYTHONPATH=services/inference \
        target/inference-venv/bin/python -m glossa_inference --listen "127.0.0.1:$port" \
        --models "$GLOSSA_MODELS_DIR" >"$STATE_DIR/inference.log" 2>&1 &
    pids+=($!)
    started "http://127.0.0.1:$port/health" "$STATE_DIR/inference.log"
fi

if [[ ,$ENGINE, == *,apertium,* ]]; then
    if [[ $APERTIUM_URL =~ ^http://(127\.0\.0\.1|localhost):([0-9]+)/*$ ]]; then
        port=${BASH_REMATCH[2]}
        echo "Starting Apertium APY on 127.0.0.1:$port"
        scripts/apy-loopback.py -p "$port" /usr/share/apertium/modes >"$STATE_DIR/apertium-apy.log" 2>&1 &
        pids+=($!)
        # Translations answer 503 until APY is up, so wait for it (it loads its pairs first).
        started "http://127.0.0.1:$port/listPairs" "$STATE_DIR/apertium-apy.log"
    fi
fi

# The language-tools service (detection and correction models), on loopback with a secret made
# for this run unless one is given; the application gets both through its variables.
if [[ $LANGUAGE_TOOLS_URL =~ ^http://(127\.0\.0\.1|localhost):([0-9]+)/*$ ]]; then
    port=${BASH_REMATCH[2]}
    secret LANGUAGE_TOOLS_SECRET
    export SPIN_VARIABLE_LANGUAGE_TOOLS_URL=$LANGUAGE_TOOLS_URL
    [ -x "$LANGUAGE_TOOLS" ] || { echo "$LANGUAGE_TOOLS is not built: run \`make up\` (or set LANGUAGE_TOOLS)" >&2; exit 1; }
    echo "Starting the language-tools service on 127.0.0.1:$port (it loads its models first)"
    LANGUAGE_TOOLS_SECRET=$SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET \
        "$LANGUAGE_TOOLS" --listen "127.0.0.1:$port" >"$STATE_DIR/language-tools.log" 2>&1 &
    pids+=($!)
    started "http://127.0.0.1:$port/health" "$STATE_DIR/language-tools.log"
fi

# The voice gateway (real-time voice's WebSocket) on loopback, with the voice secrets made for
# this run unless they are given; it reaches the application and the inference service.
if [ -n "$voice" ]; then
    secret VOICE_TOKEN_SECRET
    secret VOICE_GATEWAY_SECRET
    [ -x "$VOICE_GATEWAY" ] || { echo "$VOICE_GATEWAY is not built: run \`make up\` (or set VOICE_GATEWAY)" >&2; exit 1; }
    echo "Starting the voice gateway on 127.0.0.1:$voice"
    VOICE_GATEWAY_SECRET=$SPIN_VARIABLE_VOICE_GATEWAY_SECRET INFERENCE_SECRET=${SPIN_VARIABLE_INFERENCE_SECRET:-} \
        "$VOICE_GATEWAY" --listen "127.0.0.1:$voice" --app-url "http://$LISTEN" --inference-url "$INFERENCE_URL" \
        >"$STATE_DIR/voice-gateway.log" 2>&1 &
    pids+=($!)
    started "http://127.0.0.1:$voice/health" "$STATE_DIR/voice-gateway.log"
fi

sqlite=()
for migration in sql/*.sql; do sqlite+=(--sqlite "@$migration"); done
echo "Starting Glossa on http://$LISTEN (state in $STATE_DIR); Ctrl-C stops it."
cat <<HELP
To get a first key, create a subscription and its admin key (the key is printed once):
    $RUNNER admin create-subscription --plan pro --state-dir $STATE_DIR
then create a developer key with it:
    curl -X POST -H 'Authorization: Service-Auth-Key <admin key>' http://$LISTEN/v2/admin/developer-keys
(or start with SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY=<uuid>:adm: the first request with that key creates it).
HELP
"$RUNNER" up --listen "$LISTEN" --state-dir "$STATE_DIR" \
    --runtime-config-file runtime-config.toml "${sqlite[@]}" &
pids+=($!)
# Once it answers, say once whether the settings can work: /health checks the variables, the
# engine settings and the storage, and names what is wrong.
for _ in $(seq 1 600); do
    status=$(curl -s -o "$STATE_DIR/health.json" -w '%{http_code}' "http://$LISTEN/health" 2>/dev/null) || true
    case $status in
    200) echo "GET /health: healthy"; break ;;
    503) echo "GET /health reports a problem (see $STATE_DIR/health.json): $(cat "$STATE_DIR/health.json")" >&2; break ;;
    esac
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.2
done
wait -n "${pids[@]}"
