// Small helpers for building the page: elements with attributes and children, SVG elements, clearing.

const SVG = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, as h() makes HTML ones. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Replace a node's children. */
export function put(node, ...children) {
  clear(node);
  return fill(node, {}, children);
}

export function byId(id) {
  return document.getElementById(id);
}
