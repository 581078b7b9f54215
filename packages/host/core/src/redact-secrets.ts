// Secret values replaced by *** in a text that leaves the host (a log line, a frame of the session protocol). The
// list is read by reference and may grow while the host runs (a key entered through the console); values shorter
// than 4 characters are left alone (they would mask ordinary words).

export function redactor(secrets: readonly string[]): (text: string) => string {
  let values = secrets.filter((secret) => secret.length >= 4);
  let known = secrets.length;
  return (text) => {
    if (secrets.length !== known) {
      values = secrets.filter((secret) => secret.length >= 4);
      known = secrets.length;
    }
    let result = text;
    // Most texts hold no secret: looked for first, split only where one is.
    for (const secret of values) if (result.includes(secret)) result = result.split(secret).join('***');
    return result;
  };
}
