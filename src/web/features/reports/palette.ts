/**
 * The charts' colours: Okabe and Ito's palette, told apart with the common kinds of colour
 * blindness. Only the members with at least 3:1 contrast on white are used for marks (blue,
 * vermillion, bluish green, black); orange, sky blue and yellow are too light for bars on white.
 */
export const OKABE_ITO = {
  blue: '#0072B2',
  vermillion: '#D55E00',
  bluishGreen: '#009E73',
  black: '#000000',
} as const;

/** Chart text and lines, from the site's own ink and rule colours (app.css). */
export const INK = '#1f2a37';
export const INK_SOFT = '#4a5868';
export const RULE = '#d9e1ea';
