"""Streams an audio file to a real-time voice session, as a client of the Service API would, and
reports what came back.

Usage: voice_client.py STREAMING_URL TOKEN FILE SECONDS [--format json|msgpack] [--pace X]
                       [--chunk-ms N] [--stop-after-ms N] [--wrong-frames] [--timing] [--media-out PATH]

FILE is sent as it is, in chunks of about --chunk-ms of audio (the file's bytes spread evenly over
its SECONDS), one chunk per --chunk-ms divided by --pace (1: real time), then
`end_of_source_media`; everything the server sends is collected until `end_of_stream`, an
`error`, or the socket closes. --stop-after-ms stops sending (without `end_of_source_media`) and
closes after that much audio. --wrong-frames sends chunks in the other frame type than the
format's. Prints one JSON object: the message types in order, the concluded and last tentative
source segments, each target's concluded segments, the errors, and how the socket closed.
Every message the server sends is checked against the project's AsyncAPI description
(docs/asyncapi.yaml); those that do not match are listed under "invalid".
Translated speech is summed up under "media" per language (chunks, duration, bytes, the first
chunk's content_type and headers, and "spoken": [text, duration] of each chunk with a text); --media-out PATH writes its packets, joined, to PATH.<language>.
--timing adds two keys, with times in seconds on a monotonic clock started just before the
connection: "sent", one [end_ms, time] per chunk (the stream position in milliseconds where the
chunk's audio ends, and when its send finished), and "concluded_at", when each segment of
"concluded" arrived (in the same order). bench/voice.sh measures latency with them.
"""

import argparse
import asyncio
import base64
import json
import sys
import time
from pathlib import Path

import jsonschema
import msgpack
import websockets
import yaml

ROOT = Path(__file__).resolve().parents[2]


def described_messages():
    """Each server message's payload schema from docs/asyncapi.yaml, by the message's key, with
    the component schemas it refers to written in place."""
    description = yaml.safe_load((ROOT / "docs" / "asyncapi.yaml").read_text())
    schemas = description["components"]["schemas"]

    def inline(node):
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(schemas[node["$ref"].rsplit("/", 1)[-1]])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    payloads = {}
    for message in description["components"]["messages"].values():
        payload = inline(message["payload"])
        (key,) = payload["required"]
        payloads[key] = payload
    return payloads


def encode(message, message_format, wrong=False):
    """A client message as the session's format frames it (or as the other one)."""
    if message_format == "json":
        body = {key: {k: base64.b64encode(v).decode() if isinstance(v, bytes) else v for k, v in value.items()}
                for key, value in message.items()}
        text = json.dumps(body)
        return text.encode() if wrong else text
    packed = msgpack.packb(message, use_bin_type=True)
    return packed.decode("latin-1") if wrong else packed


def decode(frame):
    """A server message from a TEXT (JSON) or BINARY (msgpack) frame."""
    if isinstance(frame, str):
        return json.loads(frame), "text"
    return msgpack.unpackb(frame, raw=False), "binary"


async def stream(args):
    audio = open(args.file, "rb").read()
    seconds = float(args.seconds)
    chunk_bytes = max(1, int(len(audio) / seconds * args.chunk_ms / 1000))
    if "pcm" in args.kind:
        frame = 1 if ("alaw" in args.kind or "ulaw" in args.kind) else 2
        chunk_bytes -= chunk_bytes % frame
    report = {"types": [], "frames": [], "concluded": [], "tentative": [], "targets": {}, "errors": [], "close": None,
              "invalid": [], "media": {}}
    if args.timing:
        report["sent"], report["concluded_at"] = [], []
    origin = time.monotonic()
    payloads = described_messages()
    url = f"{args.url}?token={args.token}"
    try:
        async with websockets.connect(url, max_size=None) as socket:
            async def receive():
                async for frame in socket:
                    message, kind = decode(frame)
                    (name, body), = message.items()
                    try:
                        jsonschema.validate(message, payloads[name])
                    except (KeyError, jsonschema.ValidationError) as error:
                        report["invalid"].append(f"{name}: {getattr(error, 'message', 'not described')}")
                    report["types"].append(name)
                    report["frames"].append(kind)
                    if name == "source_transcript_update":
                        report["concluded"].extend(body["concluded"])
                        if args.timing:
                            arrived = round(time.monotonic() - origin, 4)
                            report["concluded_at"].extend(arrived for _ in body["concluded"])
                        report["tentative"] = body["tentative"]
                    elif name == "target_transcript_update":
                        report["targets"].setdefault(body["language"], []).extend(body["concluded"])
                    elif name == "target_media_chunk":
                        media = report["media"].setdefault(
                            body["language"], {"chunks": 0, "duration": 0, "bytes": 0, "spoken": []}
                        )
                        if media["chunks"] == 0:
                            media["content_type"], media["headers"] = body.get("content_type"), body.get("headers")
                        media["chunks"] += 1
                        media["duration"] += body["duration"]
                        if body.get("text") is not None:
                            media["spoken"].append([body["text"], body["duration"]])
                        for packet in body["data"]:
                            packet = base64.b64decode(packet) if isinstance(packet, str) else packet
                            media["bytes"] += len(packet)
                            if args.media_out:
                                with open(f"{args.media_out}.{body['language']}", "ab") as out:
                                    out.write(packet)
                    elif name == "error":
                        report["errors"].append(body)
                    if name in ("end_of_stream", "error"):
                        return

            receiver = asyncio.create_task(receive())
            started = time.monotonic()
            sent_ms = 0
            for index, start in enumerate(range(0, len(audio), chunk_bytes)):
                if receiver.done():
                    break
                if args.stop_after_ms is not None and sent_ms >= args.stop_after_ms:
                    await socket.close()
                    break
                chunk = audio[start:start + chunk_bytes]
                await socket.send(encode({"source_media_chunk": {"data": chunk}}, args.format, args.wrong_frames))
                if args.timing:
                    end_ms = round((start + len(chunk)) / len(audio) * seconds * 1000)
                    report["sent"].append([end_ms, round(time.monotonic() - origin, 4)])
                sent_ms += args.chunk_ms
                due = started + (index + 1) * args.chunk_ms / 1000 / args.pace
                await asyncio.sleep(max(0.0, due - time.monotonic()))
            else:
                await socket.send(encode({"end_of_source_media": {}}, args.format))
            try:
                await asyncio.wait_for(receiver, timeout=args.timeout)
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                pass
            report["close"] = socket.close_code
    except websockets.InvalidStatus as refused:
        report["close"] = f"HTTP {refused.response.status_code}"
    except websockets.ConnectionClosed as closed:
        report["close"] = closed.code
    print(json.dumps(report))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("file")
    parser.add_argument("seconds")
    parser.add_argument("--kind", default="audio/pcm;encoding=s16le;rate=16000")
    parser.add_argument("--format", default="json", choices=["json", "msgpack"])
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--chunk-ms", type=int, default=100)
    parser.add_argument("--stop-after-ms", type=int)
    parser.add_argument("--wrong-frames", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--media-out")
    asyncio.run(stream(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
