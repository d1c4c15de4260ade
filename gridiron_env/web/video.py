"""A game record as pictures and a video: every position of the game, both teams' turns, each drawn by
``gridiron_env.render.render_rgb`` (the field as the rulebook paints it) with a banner across the field
for what the action did: touchdowns, field goals, safeties, interceptions, fumbles, recoveries, tackles,
first downs, turnovers and the final score (the events of :func:`gridiron_env.events.play_events` and the
banner ``render_rgb`` draws for them, from what a spectator may see: a hidden fumbled ball is drawn
nowhere).

``python -m gridiron_env.web.video RECORD.json OUT.mp4 [--fps 4] [--hold 6] [--offence-up] [--lines tint]``
writes the video (moviepy, the ``video`` extra); :func:`record_frames` gives the frames as arrays.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from gridiron_env.core.visibility import team_view
from gridiron_env.events import EVENT_KINDS, play_events
from gridiron_env.render import BANNER_H, DEFAULT_COLOURS, draw_banner, render_rgb  # noqa: F401  (re-exported)

from . import records as R


def record_frames(record: dict, offence_up: bool = False, lines: str = "line", hold: int = 6,
                  colours=DEFAULT_COLOURS) -> list[np.ndarray]:
    """The pictures of a (checked) record's game: the start, then one per action (both teams'), and each
    action that has banners shown ``hold`` frames more with them. uint8 [642, 420, 3] each."""
    if not isinstance(hold, int) or isinstance(hold, bool) or not 0 <= hold <= 100:
        raise ValueError(f"hold must be an int from 0 to 100 frames, got {hold!r}")
    clean = R.check_record(record)
    states = R.replay_states(clean)  # every position, the start included
    shown = [team_view(st, None, -1) for st in states]  # as a spectator sees it: no hidden ball
    frames = [render_rgb(shown[0], 0, offence_up=offence_up, colours=colours, lines=lines)]
    for k, action in enumerate(clean["actions"]):
        frames.append(render_rgb(shown[k + 1], 0, offence_up=offence_up, colours=colours, lines=lines))
        if hold and play_events(shown[k], shown[k + 1], action):
            # the banner (every kind of event) as gridiron_env.render draws it for the step
            banner = render_rgb(shown[k + 1], 0, offence_up=offence_up, colours=colours, lines=lines,
                                previous=shown[k], action=action, banners=EVENT_KINDS)
            frames.extend([banner] * hold)
    return frames


def write_video(record: dict, path, fps: int = 4, **options) -> int:
    """Write the record's video to ``path`` (needs moviepy); returns the number of frames."""
    try:
        from moviepy import ImageSequenceClip
    except ImportError:  # moviepy 1.x
        try:
            from moviepy.editor import ImageSequenceClip
        except ImportError:
            raise RuntimeError("writing a video needs moviepy: pip install 'gridiron_env[video]'") from None
    frames = record_frames(record, **options)
    clip = ImageSequenceClip(frames, fps=fps)
    clip.write_videofile(str(path), fps=fps, logger=None, audio=False)
    return len(frames)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m gridiron_env.web.video",
                                description="Render a Gridiron game record to a video, both teams' turns, with banners.")
    p.add_argument("record", help="a record file (JSON, as gridiron-serve saves them)")
    p.add_argument("out", help="the video file to write (.mp4, .webm, .gif)")
    p.add_argument("--fps", type=int, default=4, help="frames (actions) per second, 1-60 (default 4)")
    p.add_argument("--hold", type=int, default=6, help="extra frames a banner stays (default 6)")
    p.add_argument("--offence-up", action="store_true", help="turn the field so the offence attacks up")
    p.add_argument("--lines", choices=("line", "tint"), default="line", help="the LOS and line to gain as lines or tinted rows")
    args = p.parse_args(argv)
    if not 1 <= args.fps <= 60 or not 0 <= args.hold <= 100:
        print("error: --fps must be 1-60 and --hold 0-100", file=sys.stderr)
        return 2
    try:
        record = R.load_record(args.record)
        n = write_video(record, args.out, fps=args.fps, hold=args.hold, offence_up=args.offence_up, lines=args.lines)
    except (R.RecordError, RuntimeError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {n} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
