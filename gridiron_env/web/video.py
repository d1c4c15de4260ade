"""A game record as pictures and a video: every position of the game, both teams' turns, each drawn by
``gridiron_env.render.render_rgb`` (the field as the rulebook paints it) with a banner across the field
for what the action did: touchdowns, field goals, safeties, interceptions, fumbles, recoveries, tackles,
first downs, turnovers and the final score (:func:`gridiron_env.web.sessions.describe_step`, from what a
spectator may see: a hidden fumbled ball is drawn nowhere).

``python -m gridiron_env.web.video RECORD.json OUT.mp4 [--fps 4] [--hold 6] [--offence-up] [--lines tint]``
writes the video (moviepy, the ``video`` extra); :func:`record_frames` gives the frames as arrays.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from gridiron_env.core.visibility import team_view
from gridiron_env.render import DEFAULT_COLOURS, FIELD_BOX, render_rgb

from . import records as R
from .sessions import describe_step

# A 5 x 7 capital font for the banners (rows top to bottom, '#' lit).
_FONT = {
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#", "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.", "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####", "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####", "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.", "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#", "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#", "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.", "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#", "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.", "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.", "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.", "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..", "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.", "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####", "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.", "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.", "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.", "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    "!": "..#..|..#..|..#..|..#..|..#..|.....|..#..", "-": ".....|.....|.....|.###.|.....|.....|.....",
    ":": ".....|..#..|..#..|.....|..#..|..#..|.....", ".": ".....|.....|.....|.....|.....|.##..|.##..",
    "(": "...#.|..#..|.#...|.#...|.#...|..#..|...#.", ")": ".#...|..#..|...#.|...#.|...#.|..#..|.#...",
    " ": ".....|.....|.....|.....|.....|.....|.....",
}
_GLYPHS = {ch: np.array([[c == "#" for c in row] for row in g.split("|")]) for ch, g in _FONT.items()}
BANNER_H = 40
GOLD = np.array([255, 200, 30], dtype=np.float64)
WHITE = np.array([250, 250, 250], dtype=np.float64)


def _text_mask(text: str, scale: int) -> np.ndarray:
    chars = [ch for ch in text.upper() if ch in _GLYPHS]
    if not chars:
        return np.zeros((7 * scale, 1), dtype=bool)
    row = np.concatenate([np.pad(_GLYPHS[ch], ((0, 0), (0, 1))) for ch in chars], axis=1)[:, :-1]
    return np.kron(row, np.ones((scale, scale), dtype=bool))


def draw_banner(frame: np.ndarray, text: str, colour=None) -> np.ndarray:
    """A copy of ``frame`` (an ``render_rgb`` picture) with ``text`` on a dark band across the middle of
    the field, in gold, edged in ``colour`` (a team's colour, '#rrggbb'), the text shrunk to fit."""
    out = frame.astype(np.float64)
    y0, y1, x0, x1 = FIELD_BOX
    top = (y0 + y1) // 2 - BANNER_H // 2
    band = out[top:top + BANNER_H, x0:x1]
    band *= 0.25
    if colour is not None:
        rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)
        band[:3] = rgb
        band[-3:] = rgb
    width = x1 - x0 - 12
    for scale in (3, 2, 1):
        mask = _text_mask(text, scale)
        if mask.shape[1] <= width:
            break
    mask = mask[:, :width]
    h, w = mask.shape
    ty, tx = (BANNER_H - h) // 2, (x1 - x0 - w) // 2
    band[ty:ty + h, tx:tx + w][mask] = GOLD
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


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
        picture = render_rgb(shown[k + 1], 0, offence_up=offence_up, colours=colours, lines=lines)
        caption = describe_step(shown[k], shown[k + 1], action, int(states[k].to_act[0]), -1)
        frames.append(picture)
        if caption["banners"]:
            text = "  ".join(b["text"] for b in caption["banners"])
            team = next((b["team"] for b in caption["banners"] if b["team"] is not None), None)
            banner = draw_banner(picture, text, colours[team] if team is not None else None)
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
