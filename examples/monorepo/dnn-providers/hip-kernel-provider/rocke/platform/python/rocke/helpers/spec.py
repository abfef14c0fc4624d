"""Signature helpers: one definition of a kernel's argument list."""


class SignatureBuilder:
    def __init__(self, entries=None):
        self._entries = list(entries or [])

    def ptr(self, name, dtype, addr_space="global"):
        return SignatureBuilder(self._entries + [{"name": name, "type": f"ptr<{dtype},{addr_space}>"}])

    def scalar(self, name, ty):
        return SignatureBuilder(self._entries + [{"name": name, "type": ty}])

    def extend(self, entries):
        return SignatureBuilder(self._entries + list(entries))

    def build(self):
        return list(self._entries)
