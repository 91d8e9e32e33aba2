"""Reads an HTML document on stdin with Python's own tokenizer (html.parser) and prints what it
saw as JSON: every start tag with its attributes, end tag, comment, declaration, processing
instruction and piece of text, in order. The Rust test decides what is allowed; this script only
reports, so that the document is read by a parser toolscope did not write."""

import json
import sys
from html.parser import HTMLParser


class Events(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events = []

    def handle_starttag(self, tag, attrs):
        self.events.append(["start", tag, attrs])

    def handle_startendtag(self, tag, attrs):
        self.events.append(["startend", tag, attrs])

    def handle_endtag(self, tag):
        self.events.append(["end", tag])

    def handle_data(self, data):
        self.events.append(["data", data])

    def handle_comment(self, data):
        self.events.append(["comment", data])

    def handle_decl(self, decl):
        self.events.append(["decl", decl])

    def handle_pi(self, data):
        self.events.append(["pi", data])

    def unknown_decl(self, data):
        self.events.append(["unknown_decl", data])


parser = Events()
parser.feed(sys.stdin.buffer.read().decode("utf-8"))
parser.close()
json.dump(parser.events, sys.stdout)
