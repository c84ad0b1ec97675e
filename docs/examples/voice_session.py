"""A real-time voice session in a few lines: ask Glossa for a session, stream a recording at
real-time pace, print every message that comes back.

Usage: python voice_session.py BASE_URL KEY FILE.s16le TARGET...
FILE.s16le is raw PCM, signed 16-bit little-endian, 16 kHz, mono (`ffmpeg -i in.wav -f s16le
-ac 1 -ar 16000 out.s16le`). Needs `pip install requests websockets`.
"""

import asyncio, base64, json, sys

import requests, websockets


async def main(base, key, path, targets):
    session = requests.post(f"{base}/v3/voice/realtime", headers={"Authorization": f"Service-Auth-Key {key}"},
                            json={"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000",
                                  "source_language": "en", "target_languages": targets}).json()
    if "token" not in session:
        sys.exit(session["message"])
    audio = open(path, "rb").read()
    async with websockets.connect(f"{session['streaming_url']}?token={session['token']}") as socket:
        async def send():
            for start in range(0, len(audio), 3200):  # 100 ms of audio per chunk
                chunk = base64.b64encode(audio[start:start + 3200]).decode()
                await socket.send(json.dumps({"source_media_chunk": {"data": chunk}}))
                await asyncio.sleep(0.1)
            await socket.send(json.dumps({"end_of_source_media": {}}))
        sending = asyncio.create_task(send())
        async for message in socket:
            print(message)
            if "end_of_stream" in message or "error" in message:
                break
        sending.cancel()


asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
