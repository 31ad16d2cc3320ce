#!/bin/sh
# Makes the spoken fixtures with real tools (espeak-ng 1.51 and sox from Debian), so pb-listen is
# tested on speech a synthesizer said, not on samples typed by hand (run again after changing a
# line; commit the WAVs: another espeak-ng may say them differently). Each is 16 kHz, 16-bit mono,
# resampled without dither (-D), so the same tools make the same bytes:
#   request.wav    en-gb, 150 words a minute: a request for pb-do;
#   memo.wav       en-gb: a fact for pb-thread to remember;
#   question.wav   en-us: a question that samples/dishwasher-manual.pdf answers;
#   names.wav      en-gb: a request naming a contact (Mira), which a general recogniser mishears;
#   boiler-visit.flac  en-gb, four sentences: a voice memo for a library (pb-ingest, pb-ask), in FLAC;
#   silence.wav    two seconds of digital silence;
#   empty.wav      a WAV header with no samples;
#   truncated.wav  the first 40,000 bytes of request.wav: a header promising more than the file holds;
#   not-audio.wav  a line of text under an audio file's name.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say() {
  espeak-ng -v "$2" -s 150 -w "$tmp/said.wav" "$3"
  sox -D "$tmp/said.wav" -r 16000 -b 16 -c 1 "$here/$1"
}
say request.wav en-gb "Remind me to renew the car insurance on Friday."
say memo.wav en-gb "My gym locker code is forty seven nineteen."
say question.wav en-us "How long is the warranty on the dishwasher?"
say names.wav en-gb "Call Mira about the boiler tomorrow."
say boiler-visit.flac en-gb "Notes from the boiler visit on Tuesday. The engineer said the pressure should stay between one and one and a half bar. The next service is due in October. He charged ninety pounds for the visit."
sox -D -n -r 16000 -b 16 -c 1 "$here/silence.wav" trim 0 2
sox -D -n -r 16000 -b 16 -c 1 "$here/empty.wav" trim 0 0
head -c 40000 "$here/request.wav" >"$here/truncated.wav"
printf 'This is a text file, not audio.\n' >"$here/not-audio.wav"
