// Stands in for js-yaml inside gray-matter: continuation-loop parses YAML with `yaml`, never js-yaml.
const unused = () => {
  throw new Error("js-yaml is not bundled: pass a yaml engine to gray-matter");
};
module.exports = { safeLoad: unused, safeDump: unused, load: unused, dump: unused };
