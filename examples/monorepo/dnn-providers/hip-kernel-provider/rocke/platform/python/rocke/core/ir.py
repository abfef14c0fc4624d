"""Kernel IR: types, parameters and the builder that declares a kernel's ABI."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScalarType:
    name: str
    bits: int


I1 = ScalarType("i1", 1)
I8 = ScalarType("i8", 8)
I16 = ScalarType("i16", 16)
I32 = ScalarType("i32", 32)
I64 = ScalarType("i64", 64)
F16 = ScalarType("f16", 16)
BF16 = ScalarType("bf16", 16)
F32 = ScalarType("f32", 32)


@dataclass(frozen=True)
class PtrType:
    pointee: ScalarType
    addr_space: str = "global"


@dataclass
class Param:
    name: str
    type: object
    attrs: dict = field(default_factory=dict)


class IRBuilder:
    def __init__(self, name):
        self.name = name
        self.params = []

    def param(self, name, ty, **attrs):
        if any(p.name == name for p in self.params):
            raise ValueError(f"duplicate parameter {name}")
        p = Param(name, ty, attrs)
        self.params.append(p)
        return p

    def finish(self):
        return KernelDef(self.name, list(self.params))


@dataclass
class KernelDef:
    name: str
    params: list
