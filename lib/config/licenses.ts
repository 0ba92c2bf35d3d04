/** Licences the open data can be published under: the values `OPEN_DATA_LICENSE` accepts by name. */

/** The licence the open data is published under (`OPEN_DATA_LICENSE`). */
export interface OpenDataLicense {
  /** An SPDX-style identifier, e.g. `CC-BY-4.0`. */
  name: string;
  title: string;
  path: string;
}

/** Licences an operator can name by identifier alone. */
export const KNOWN_LICENSES: Record<string, OpenDataLicense> = {
  "CC-BY-4.0": {
    name: "CC-BY-4.0",
    title: "Creative Commons Atribución 4.0 Internacional",
    path: "https://creativecommons.org/licenses/by/4.0/",
  },
  "CC0-1.0": {
    name: "CC0-1.0",
    title: "Creative Commons CC0 1.0 Universal (dominio público)",
    path: "https://creativecommons.org/publicdomain/zero/1.0/",
  },
  "ODbL-1.0": {
    name: "ODbL-1.0",
    title: "Open Data Commons Open Database License 1.0",
    path: "https://opendatacommons.org/licenses/odbl/1-0/",
  },
  "CC-BY-SA-4.0": {
    name: "CC-BY-SA-4.0",
    title: "Creative Commons Atribución-CompartirIgual 4.0 Internacional",
    path: "https://creativecommons.org/licenses/by-sa/4.0/",
  },
};
